package dev.sluice.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/** A WorkloadPriorityClass carries a top-level 32-bit integer {@code value}, like a PriorityClass. */
final class WorkloadPriorityClassRules {
    private WorkloadPriorityClassRules() {
    }

    static FieldErrors validate(JsonNode wpc) {
        FieldErrors errors = new FieldErrors();
        if (!Fields.present(wpc, "value")) {
            errors.required("value", "give the priority as an integer, e.g. value: 1000 (higher is admitted first)");
        } else if (!wpc.get("value").isIntegralNumber() || !wpc.get("value").canConvertToInt()) {
            errors.invalid("value", wpc.get("value"), "must be an integer between -2147483648 and 2147483647");
        }
        Fields.text(wpc, "description", "description", errors);
        return errors;
    }
}
