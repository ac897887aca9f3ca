package dev.sluice.engine;

/**
 * Quota of one ClusterQueue in one (flavor, resource), milli-units. The guaranteed part (nominal minus
 * lendingLimit) is kept for the queue itself; the rest is lent to the cohort.
 */
record FlavorResourceQuota(long nominal, Long borrowingLimit, Long lendingLimit) {
    static final FlavorResourceQuota NONE = new FlavorResourceQuota(0, 0L, null);

    long guaranteed() {
        return lendingLimit == null ? 0 : nominal - lendingLimit;
    }

    long lendable() {
        return nominal - guaranteed();
    }
}
