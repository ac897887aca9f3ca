package dev.sluice.webhook;

import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * What a webhook decided: allowed (with an RFC 6902 patch, possibly empty) or denied with a message.
 *
 * @param code HTTP-style status of a denial: 403 for a forbidden change, 422 for an invalid object
 */
record Verdict(boolean allowed, ArrayNode patch, int code, String reason, String message) {

    static Verdict allow() {
        return new Verdict(true, null, 200, null, null);
    }

    static Verdict patch(ArrayNode patch) {
        return new Verdict(true, patch == null || patch.isEmpty() ? null : patch, 200, null, null);
    }

    static Verdict forbidden(String message) {
        return new Verdict(false, null, 403, "Forbidden", message);
    }

    static Verdict invalid(String message) {
        return new Verdict(false, null, 422, "Invalid", message);
    }
}
