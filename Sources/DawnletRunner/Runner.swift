// DawnletRunner: the service behind `dawnlet-remind serve` (shared/DESIGN.md §6): plan with
// DawnletCore, arm one sd-event timer through DawnletSystem, deliver, record in DawnletStore's
// delivery log, re-plan on change. Built by issue 5; the target exists so the dependency
// direction of DESIGN §1 is fixed from the start.
