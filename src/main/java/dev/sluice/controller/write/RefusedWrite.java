package dev.sluice.controller.write;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * An API server's refusal of a write, with what the write sent. The server's answer does not always say what it
 * refused: a JSON patch that does not apply to the stored object is answered 422 with kube-apiserver's generic "the
 * server rejected our request due to an error in our request" and no cause, so the log and the event name the patch's
 * operations themselves ({@link WriteFailures#describe}). Code and Status are the server's.
 */
final class RefusedWrite extends KubernetesClientException {

    private static final int MAX_SHOWN = 8;

    private final String sent;

    RefusedWrite(KubernetesClientException answer, String sent) {
        super(answer.getMessage(), answer.getCode(), answer.getStatus());
        addSuppressed(answer); // its own cause is fixed by the constructor; the answer stays in the trace
        this.sent = sent;
    }

    /** "JSON patch: replace /metadata/resourceVersion, remove /status/startTime", or the merge patch sent. */
    String sent() {
        return sent;
    }

    /** A JSON patch's operations, "op path" each, at most {@value #MAX_SHOWN} of them. */
    static String jsonPatch(com.fasterxml.jackson.databind.JsonNode ops) {
        StringBuilder b = new StringBuilder("JSON patch: ");
        int n = 0;
        for (var op : ops) {
            if (n == MAX_SHOWN) {
                b.append(", … (").append(ops.size() - MAX_SHOWN).append(" more)");
                break;
            }
            b.append(n++ == 0 ? "" : ", ").append(op.path("op").asText()).append(' ').append(op.path("path").asText());
        }
        return b.toString();
    }

    /** A JSON merge patch as sent. */
    static String mergePatch(com.fasterxml.jackson.databind.JsonNode patch) {
        return "JSON merge patch: " + patch;
    }
}
