package dev.sluice.api.conversion;

/** An object that cannot be converted; the message names the object and the field, as the API server shows it. */
public class ConversionException extends Exception {

    public ConversionException(String message) {
        super(message);
    }
}
