package dev.sluice.controller;

import dev.sluice.api.v1beta1.Workload;
import dev.sluice.engine.Engine;
import dev.sluice.engine.WorkloadKey;
import java.util.Optional;

/**
 * What a reader (visibility API, forecast, dashboard) may look at, on the engine thread only and only for the
 * duration of one {@link ControllerRuntime#read} call: the live engine and the cached Workloads. Readers must not
 * change either; they copy what they need out.
 */
public final class LiveState {
    private final Session session;

    LiveState(Session session) {
        this.session = session;
    }

    public Engine engine() {
        return session.engine;
    }

    /** The cached Workload (pod templates dropped), if any. */
    public Optional<Workload> workload(WorkloadKey key) {
        return Optional.ofNullable(session.cache.workloads.getStore().getByKey(key.namespace() + "/" + key.name()));
    }

    /** Milliseconds of the controller's clock. */
    public long nowMillis() {
        return session.nowMillis();
    }
}
