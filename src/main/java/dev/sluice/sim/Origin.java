package dev.sluice.sim;

/** Where an input object came from, to name it in error messages. */
public record Origin(String file, int document, String object) {

    public InputError error(String field, String problem) {
        return new InputError(file, document, object, field, problem);
    }

    public Origin named(String object) {
        return new Origin(file, document, object);
    }
}
