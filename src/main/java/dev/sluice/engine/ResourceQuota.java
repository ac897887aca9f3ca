package dev.sluice.engine;

import java.util.Objects;

/** Quota of one resource in one flavor, in milli-units; null limits mean unlimited. */
public record ResourceQuota(String resource, long nominal, Long borrowingLimit, Long lendingLimit) {
    public ResourceQuota {
        Objects.requireNonNull(resource, "resource name");
        if (nominal < 0) {
            throw new IllegalArgumentException("nominalQuota of " + resource + " must not be negative");
        }
        if (borrowingLimit != null && borrowingLimit < 0) {
            throw new IllegalArgumentException("borrowingLimit of " + resource + " must not be negative");
        }
        if (lendingLimit != null && (lendingLimit < 0 || lendingLimit > nominal)) {
            throw new IllegalArgumentException("lendingLimit of " + resource
                    + " must be between 0 and its nominalQuota");
        }
    }

    public ResourceQuota(String resource, long nominal) {
        this(resource, nominal, null, null);
    }
}
