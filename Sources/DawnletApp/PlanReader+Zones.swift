import DawnletCore
import DawnletSystem

/// The zones of items that have their own (`ItemDefinition.zone`), loaded once per plan from the
/// system's tzdata. A name the tzdata here does not know (it was removed) leaves its item floating:
/// read in the plan's zone, as an item without one is, rather than unplanned.
extension PlanReader {
    /// Each definition's own zone, boxed once, by the definitions' order; empty when none has one.
    func zoneBoxes(_ definitions: [ItemDefinition]) -> [PlanItem.ZoneBox?] {
        guard definitions.contains(where: { $0.zone != nil }) else { return [] }
        var boxes: [String: PlanItem.ZoneBox] = [:]
        return definitions.map { definition in
            guard let name = definition.zone else { return nil }
            if let known = boxes[name] { return known }
            guard let zone = try? zones.zone(named: name) else { return nil }
            let box = PlanItem.ZoneBox(zone)
            boxes[name] = box
            return box
        }
    }

    /// The zones the definitions name, by name (those the tzdata `zones` knows).
    public static func itemZones(_ definitions: [ItemDefinition], zones: ZoneDatabase) -> [String: Zone] {
        var found: [String: Zone] = [:]
        for name in Set(definitions.compactMap(\.zone)) { if let zone = try? zones.zone(named: name) { found[name] = zone } }
        return found
    }

    /// How many days an item's own date can be from the plan zone's for the same instant: two
    /// (UTC+14 and UTC-12 are 26 hours apart) when some item has its own zone, else none.
    static func zoneSkew(_ definitions: [ItemDefinition]) -> Int {
        definitions.contains { $0.zone != nil } ? 2 : 0
    }
}
