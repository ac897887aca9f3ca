package dev.sluice.bridge;

/** A queue object or Workload the engine cannot take, with the field at fault and what to do about it. */
public class InvalidObjectException extends RuntimeException {

    private final String object;
    private final String field;

    public InvalidObjectException(String object, String field, String problem) {
        super(object + ": " + field + ": " + problem);
        this.object = object;
        this.field = field;
    }

    public String object() {
        return object;
    }

    public String field() {
        return field;
    }
}
