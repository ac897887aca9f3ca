package dev.sluice.jobs;

/**
 * The flavor assigned to a pod set asks for a node label the pod template already selects with another
 * value; the job cannot start there (the Workload fails with reason FailedToStart).
 */
public class StartConflictException extends RuntimeException {
    private final String podSet;
    private final String key;
    private final String existingValue;
    private final String flavorValue;

    public StartConflictException(String podSet, String key, String existingValue, String flavorValue) {
        super("pod set " + podSet + ": nodeSelector " + key + "=" + existingValue
                + " conflicts with the assigned flavor's node label " + key + "=" + flavorValue
                + "; remove or change the job's nodeSelector, or make the flavor's nodeLabels agree");
        this.podSet = podSet;
        this.key = key;
        this.existingValue = existingValue;
        this.flavorValue = flavorValue;
    }

    /**
     * A conflict described in full by {@code message}, e.g. an admission check's podSetUpdate asking for a label the
     * pod template has with another value (Kueue: an invalid admission check PodSetUpdate).
     */
    public StartConflictException(String podSet, String key, String message) {
        super(message);
        this.podSet = podSet;
        this.key = key;
        this.existingValue = null;
        this.flavorValue = null;
    }

    public String podSet() {
        return podSet;
    }

    public String key() {
        return key;
    }

    public String existingValue() {
        return existingValue;
    }

    public String flavorValue() {
        return flavorValue;
    }
}
