package dev.sluice.sim;

/**
 * One problem with the simulator's input: where (file, 1-based document index, object), which field, and what
 * is wrong. The message is what the user reads.
 */
public record InputError(String file, int document, String object, String field, String problem) {

    public String message() {
        StringBuilder sb = new StringBuilder();
        sb.append(file);
        if (document > 0) {
            sb.append(": document ").append(document);
        }
        if (object != null && !object.isEmpty()) {
            sb.append(" (").append(object).append(')');
        }
        sb.append(": ");
        if (field != null && !field.isEmpty()) {
            sb.append(field).append(": ");
        }
        sb.append(problem);
        return sb.toString();
    }
}
