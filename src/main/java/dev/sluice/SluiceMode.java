package dev.sluice;

/** What one Sluice process serves; property {@code sluice.mode}. */
public enum SluiceMode {
    /** Controller and webhooks in one process (the default). */
    all,
    /** Only the controller: watches the cluster, admits, starts and evicts jobs. */
    controller,
    /** Only the admission webhooks; needs no cluster connection, so webhook replicas scale on their own. */
    webhook;

    public boolean runsController() {
        return this != webhook;
    }

    public boolean servesWebhooks() {
        return this != controller;
    }
}
