package dev.sluice.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.BooleanSupplier;

/**
 * Leader election, under controller-runtime's name for "this replica leads" ({@code leader_election_master_status},
 * so Kueue's alerts on it carry over) and two of Sluice's own: whether this replica takes part in the election at all
 * (a standby that could not take over is 0) and each refused or failed request on the Lease, by HTTP status
 * ({@code code="0"}: no answer).
 */
@ApplicationScoped
public class LeaderElectionMetrics {

    static final String MASTER_STATUS = "leader_election_master_status";
    static final String HEALTHY = "sluice_leader_election_healthy";
    static final String FAILURES = "sluice_leader_election_failures_total";

    private final MeterRegistry registry;

    public LeaderElectionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * The gauges of the Lease {@code name}, read at scrape time. A gauge left by an earlier election of the same name
     * (an application restarted in the same JVM, as the tests do) is removed first: Micrometer would otherwise keep
     * reading the earlier election's state.
     */
    public void register(String name, BooleanSupplier leading, BooleanSupplier healthy) {
        for (String gauge : java.util.List.of(MASTER_STATUS, HEALTHY)) {
            registry.find(gauge).tag("name", name).meters().forEach(registry::remove);
        }
        Gauge.builder(MASTER_STATUS, () -> leading.getAsBoolean() ? 1 : 0).tag("name", name)
                .description("Reports whether this replica is the leader of the Lease 'name' (1) or not (0).")
                .register(registry);
        Gauge.builder(HEALTHY, () -> healthy.getAsBoolean() ? 1 : 0).tag("name", name)
                .description("1 while this replica's requests on the Lease 'name' succeed (it leads, or could take "
                        + "over); 0 when they are forbidden or none succeeded for longer than the lease duration.")
                .register(registry);
    }

    /** A request on the Lease failed with this HTTP status (0: no answer). */
    public void failed(String name, int code) {
        Counter.builder(FAILURES).tag("name", name).tag("code", Integer.toString(code))
                .description("Requests on the leader-election Lease 'name' that failed, by HTTP status 'code' "
                        + "(0: the API server did not answer).")
                .register(registry).increment();
    }
}
