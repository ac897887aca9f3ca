package dev.sluice.api.v1beta1;

/** The v1beta1 version of Kueue's API group (its names and priority sources are v1beta2's {@code Kueue}'s). */
public final class Kueue {

    public static final String GROUP = dev.sluice.api.v1beta2.Kueue.GROUP;
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** What the API server tells a client that uses v1beta1 (Kueue's words). */
    public static final String DEPRECATION_WARNING = "This version is deprecated. Use v1beta2 instead.";

    private Kueue() {
    }
}
