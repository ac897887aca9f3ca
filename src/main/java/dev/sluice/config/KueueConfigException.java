package dev.sluice.config;

/** Kueue's configuration file cannot be used: the message names the file, the line and the field. */
public class KueueConfigException extends RuntimeException {

    public KueueConfigException(String message) {
        super(message);
    }
}
