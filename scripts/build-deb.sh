#!/bin/bash
# Builds dawnlet-remind's Debian package from a release binary:
#   scripts/build-deb.sh BINARY OUTDIR
# writes OUTDIR/dawnlet-remind_VERSION_amd64.deb (and nothing else there but its staging folders)
# and prints its path. VERSION is the binary's own (`--version`); the packaging changelog's top entry
# and NEWS must name it. The metadata is in packaging/debian/.
set -euo pipefail
binary=$1 out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
meta=$top/packaging/debian
fail() { echo "build-deb: $*" >&2; exit 1; }

for tool in dpkg-deb dpkg-shlibdeps dpkg-parsechangelog strip gzip; do
    command -v "$tool" >/dev/null || fail "$tool is missing: run make deps"
done
[ -x "$binary" ] || fail "no binary at $binary"

# The version from one place: the constant the binary prints.
version=$("$binary" --version | sed -n 's/^dawnlet-remind \([^ ]*\) (commit .*)$/\1/p')
[ -n "$version" ] || fail "$binary --version does not say its version: $("$binary" --version)"
changelog_version=$(dpkg-parsechangelog -l "$meta/changelog" -S Version)
[ "$changelog_version" = "$version" ] ||
    fail "packaging/debian/changelog's top entry is $changelog_version, the binary is $version: add an entry (docs/development.md, Releases)"
grep -q "^dawnlet-remind $version " "$top/NEWS" || fail "NEWS has no entry for $version (docs/development.md, Releases)"

umask 022
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Staged as a source tree's debian/PACKAGE, where dpkg-shlibdeps expects a package's files.
src=$out/src
root=$src/debian/dawnlet-remind
rm -rf "$src" "$out"/dawnlet-remind_*.deb
doc=$root/usr/share/doc/dawnlet-remind
install -d -m 0755 "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/systemd/user" "$root/usr/share/man/man1" \
    "$root/usr/share/man/man5" "$root/usr/share/bash-completion/completions" "$root/usr/share/fish/vendor_completions.d" \
    "$root/usr/share/zsh/vendor-completions" "$doc/docs" "$doc/examples"

install -m 0755 "$binary" "$root/usr/bin/dawnlet-remind"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/dawnlet-remind"
bin=$root/usr/bin/dawnlet-remind
# The unit as the tree has it, pointed at the packaged binary.
sed 's|@BINDIR@|/usr/bin|' "$top/systemd/dawnlet-remind.service" > "$root/usr/lib/systemd/user/dawnlet-remind.service"
"$bin" man-page 1 | gzip -9n > "$root/usr/share/man/man1/dawnlet-remind.1.gz"
"$bin" man-page 5 | gzip -9n > "$root/usr/share/man/man5/dawnlet-remind.json5.5.gz"
"$bin" completions bash > "$root/usr/share/bash-completion/completions/dawnlet-remind"
"$bin" completions fish > "$root/usr/share/fish/vendor_completions.d/dawnlet-remind.fish"
"$bin" completions zsh > "$root/usr/share/zsh/vendor-completions/_dawnlet-remind"

# The docs keep README's links (docs/….md); as dh_compress does, NEWS and those over 4 KiB are
# compressed (not the example config, which is copied as it is).
install -m 0644 "$top/README.md" "$top/NEWS" "$doc/"
install -m 0644 "$top"/docs/*.md "$doc/docs/"
install -m 0644 "$top/config/config.example.json5" "$doc/examples/"
install -m 0644 "$meta/copyright" "$doc/copyright"
gzip -9nc "$meta/changelog" > "$doc/changelog.gz"
find "$doc" -type f \( -size +4k -o -name NEWS \) ! -name '*.gz' ! -name copyright ! -path "$doc/examples/*" -exec gzip -9n {} +
find "$root" -type f ! -path "$root/DEBIAN/*" -exec chmod go-w {} +

# Maintainer scripts: the shared function in place of #USER_MANAGERS#.
for script in postinst prerm postrm; do
    sed -e "/^#USER_MANAGERS#\$/{r $meta/user-managers.sh" -e 'd}' "$meta/$script" > "$root/DEBIAN/$script"
    chmod 0755 "$root/DEBIAN/$script"
done

# Depends: the shared libraries the binary links, as dpkg-shlibdeps finds them (it reads a source
# tree's debian/control: a minimal one).
printf 'Source: dawnlet-remind\n\nPackage: dawnlet-remind\nArchitecture: amd64\n' > "$src/debian/control"
depends=$(cd "$src" && dpkg-shlibdeps -O debian/dawnlet-remind/usr/bin/dawnlet-remind | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || fail "dpkg-shlibdeps found no dependencies for $bin"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@DEPENDS@|$depends|" -e "s|@INSTALLED_SIZE@|$size|" "$meta/control.in" > "$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\n' | LC_ALL=C sort | xargs md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

deb=$out/dawnlet-remind_${version}_amd64.deb
dpkg-deb --build --root-owner-group -Zxz "$root" "$deb" >/dev/null
echo "$deb"
