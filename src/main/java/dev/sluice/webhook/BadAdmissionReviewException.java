package dev.sluice.webhook;

/** A request body that is not an AdmissionReview Sluice can answer; the endpoint replies 400 with this message. */
public class BadAdmissionReviewException extends RuntimeException {
    public BadAdmissionReviewException(String message) {
        super(message);
    }
}
