package dev.sluice.sim;

import java.util.List;
import java.util.stream.Collectors;

/** The input cannot be simulated; carries every problem found, in input order. */
public class InvalidInputException extends Exception {

    private final List<InputError> errors;

    public InvalidInputException(List<InputError> errors) {
        super(errors.stream().map(InputError::message).collect(Collectors.joining("\n")));
        this.errors = List.copyOf(errors);
    }

    public List<InputError> errors() {
        return errors;
    }
}
