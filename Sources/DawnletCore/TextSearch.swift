// The standard library's canonical decomposition (NFD), without Foundation (and so without ICU).
@_spi(_Unicode) import Swift

/// How `find` matches what a person typed against titles: ignoring case and accents, as
/// Foundation's `.caseInsensitive, .diacriticInsensitive` did — "cafe" finds "Café", "strasse"
/// finds "Straße".
public enum TextSearch {
    /// `text` decomposed, its non-spacing marks (accents) dropped, upper-cased with the full
    /// Unicode mapping (ß → SS).
    public static func folded(_ text: String) -> String {
        let bare = text._nfd.filter { $0.properties.generalCategory != .nonspacingMark }
        return String(String.UnicodeScalarView(bare)).uppercased()
    }
}
