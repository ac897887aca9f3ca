package dev.sluice.visibility;

/**
 * One pendingworkloads request: a ClusterQueue's list (namespace null) or a LocalQueue's, and the page wanted.
 * Limit and offset are checked before a query exists (see {@link VisibilityPaths}).
 */
record PendingQuery(String version, String namespace, String queue, long offset, long limit) {

    boolean localQueue() {
        return namespace != null;
    }
}
