package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Per-workload availability: uptime, interruptions, time to recover, time between interruptions. */
class WorkloadAvailabilityTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final String NS = "default";
    private static final String JOBSET = "jobset-multislice-3slice-8c695";

    /** A clock the test moves by hand, for the uptime of a running workload at scrape time. */
    static final class ManualClock extends Clock {
        Instant now;

        ManualClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private PrometheusMeterRegistry registry;
    private ManualClock clock;
    private KueueMetrics metrics;

    @BeforeEach
    void setUp() {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        clock = new ManualClock(T0);
        metrics = new KueueMetrics(registry, clock, 3);
    }

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    /** The job started and its pods are ready at once. */
    private void up(String namespace, String name, java.time.Instant at) {
        metrics.workloadStarted(namespace, name, at);
        metrics.workloadReady(namespace, name, at);
    }

    @Test
    void upOnlyWhilePodsReadyFollowingGkesRules() {
        metrics.workloadStarted(NS, JOBSET, at(0)); // unsuspended; pods still being scheduled
        clock.now = at(120);
        Scrape provisioning = Scrape.of(registry);
        assertThat(uptime(provisioning)).as("provisioning is not uptime").isZero();
        metrics.workloadReady(NS, JOBSET, at(120));
        Scrape first = Scrape.of(registry);
        assertThat(first.value("sluice_workload_time_to_recover_seconds_count"))
                .as("the first provisioning is not a recovery").isZero();

        metrics.workloadNotReady(NS, JOBSET, at(420)); // a slice lost its node: readiness lost, job still admitted
        Scrape lost = Scrape.of(registry);
        assertThat(lost.value("sluice_workload_interruptions_total", "namespace", NS, "workload", JOBSET)).isEqualTo(1.0);
        assertThat(lost.value("sluice_workload_time_between_interruptions_seconds_sum"))
                .as("the first up period counts").isEqualTo(300.0);
        metrics.workloadInterrupted(NS, JOBSET, at(500)); // then evicted: already down, not a second interruption
        metrics.workloadStarted(NS, JOBSET, at(560));
        metrics.workloadReady(NS, JOBSET, at(600));
        Scrape recovered = Scrape.of(registry);
        assertThat(recovered.value("sluice_workload_time_to_recover_seconds_sum"))
                .as("from the loss of readiness to readiness again").isEqualTo(180.0);
        assertThat(recovered.value("sluice_workload_interruptions_total", "namespace", NS, "workload", JOBSET))
                .isEqualTo(1.0);

        metrics.workloadFailed(NS, JOBSET, at(1000));
        metrics.workloadFinished(NS, JOBSET, at(1000));
        Scrape failed = Scrape.of(registry);
        assertThat(failed.value("sluice_workload_time_between_interruptions_seconds_count"))
                .as("the last up period counts when the workload fails").isEqualTo(2.0);
        assertThat(failed.value("sluice_workload_time_between_interruptions_seconds_sum")).isEqualTo(700.0);

        up(NS, "ok", at(0));
        metrics.workloadFinished(NS, "ok", at(500)); // succeeded: its last up period is not between interruptions
        assertThat(Scrape.of(registry).value("sluice_workload_time_between_interruptions_seconds_count"))
                .isEqualTo(2.0);
    }

    private double uptime(Scrape scrape) {
        return scrape.value("sluice_workload_uptime_seconds", "namespace", NS, "workload", JOBSET);
    }

    @Test
    void startInterruptStartFinish() {
        up(NS, JOBSET, at(0));
        clock.now = at(100);
        Scrape running = Scrape.of(registry);
        assertThat(uptime(running)).isEqualTo(100.0);
        assertThat(running.value("sluice_workload_interruptions_total", "namespace", NS, "workload", JOBSET)).isZero();

        metrics.workloadInterrupted(NS, JOBSET, at(600)); // preempted after 10 minutes
        clock.now = at(700);
        Scrape down = Scrape.of(registry);
        assertThat(uptime(down)).as("frozen while interrupted").isEqualTo(600.0);
        assertThat(down.value("sluice_workload_interruptions_total", "namespace", NS, "workload", JOBSET))
                .isEqualTo(1.0);
        assertThat(down.value("sluice_workload_time_between_interruptions_seconds_count")).isEqualTo(1.0);
        assertThat(down.value("sluice_workload_time_between_interruptions_seconds_sum")).isEqualTo(600.0);
        assertThat(down.value("sluice_workload_time_to_recover_seconds_count")).isZero();

        up(NS, JOBSET, at(690)); // readmitted 90 s later
        clock.now = at(1000);
        Scrape back = Scrape.of(registry);
        assertThat(uptime(back)).isEqualTo(600.0 + 310.0);
        assertThat(back.value("sluice_workload_time_to_recover_seconds_count")).isEqualTo(1.0);
        assertThat(back.value("sluice_workload_time_to_recover_seconds_sum")).isEqualTo(90.0);
        assertThat(back.value("sluice_workload_time_to_recover_seconds_bucket", "le", "80.0")).isZero();
        assertThat(back.value("sluice_workload_time_to_recover_seconds_bucket", "le", "160.0")).isEqualTo(1.0);

        metrics.workloadFinished(NS, JOBSET, at(1200));
        Scrape done = Scrape.of(registry);
        assertThat(done.all("sluice_workload_uptime_seconds")).isEmpty();
        assertThat(done.all("sluice_workload_interruptions_total")).isEmpty();
        assertThat(metrics.trackedWorkloads()).isZero();
        // the cluster-wide distributions keep what they observed
        assertThat(done.value("sluice_workload_time_to_recover_seconds_count")).isEqualTo(1.0);
        assertThat(done.value("sluice_workload_time_between_interruptions_seconds_count")).isEqualTo(1.0);
    }

    @Test
    void meanTimeToRecoverAndBetweenInterruptionsFromSumAndCount() {
        // two interruptions of one workload, one of another: TTR 60, 180, 30; TBI 300, 120, 1000
        up(NS, "a", at(0));
        up(NS, "b", at(0));
        metrics.workloadInterrupted(NS, "a", at(300));
        up(NS, "a", at(360));
        metrics.workloadInterrupted(NS, "a", at(480));
        up(NS, "a", at(660));
        metrics.workloadInterrupted(NS, "b", at(1000));
        up(NS, "b", at(1030));

        Scrape scrape = Scrape.of(registry);
        double mttr = scrape.value("sluice_workload_time_to_recover_seconds_sum")
                / scrape.value("sluice_workload_time_to_recover_seconds_count");
        double mtbi = scrape.value("sluice_workload_time_between_interruptions_seconds_sum")
                / scrape.value("sluice_workload_time_between_interruptions_seconds_count");
        assertThat(mttr).isEqualTo(90.0);
        assertThat(mtbi).isEqualTo(1420.0 / 3);
        assertThat(scrape.value("sluice_workload_interruptions_total", "namespace", NS, "workload", "a"))
                .isEqualTo(2.0);
        assertThat(scrape.value("sluice_workload_interruptions_total", "namespace", NS, "workload", "b"))
                .isEqualTo(1.0);
    }

    @Test
    void repeatedEventsAreIdempotent() {
        up(NS, JOBSET, at(0));
        up(NS, JOBSET, at(50)); // announced again: the first start counts
        metrics.workloadInterrupted(NS, JOBSET, at(100));
        metrics.workloadInterrupted(NS, JOBSET, at(150)); // already down: not a second interruption
        clock.now = at(200);

        Scrape scrape = Scrape.of(registry);
        assertThat(uptime(scrape)).isEqualTo(100.0);
        assertThat(scrape.value("sluice_workload_interruptions_total", "namespace", NS, "workload", JOBSET))
                .isEqualTo(1.0);
        assertThat(scrape.value("sluice_workload_time_between_interruptions_seconds_sum")).isEqualTo(100.0);
    }

    @Test
    void interruptionOfAWorkloadNotSeenStartingStillCountsAndMeasuresRecovery() {
        metrics.workloadInterrupted(NS, JOBSET, at(0)); // e.g. started before the controller restarted
        up(NS, JOBSET, at(45));
        clock.now = at(100);

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.value("sluice_workload_interruptions_total", "namespace", NS, "workload", JOBSET))
                .isEqualTo(1.0);
        assertThat(scrape.value("sluice_workload_time_to_recover_seconds_sum")).isEqualTo(45.0);
        assertThat(scrape.value("sluice_workload_time_between_interruptions_seconds_count")).isZero();
        assertThat(uptime(scrape)).isEqualTo(55.0);
    }

    @Test
    void eventsOutOfOrderCountAsZeroNotNegative() {
        up(NS, JOBSET, at(100));
        metrics.workloadInterrupted(NS, JOBSET, at(90));
        clock.now = at(50);

        Scrape scrape = Scrape.of(registry);
        assertThat(uptime(scrape)).isZero();
        assertThat(scrape.value("sluice_workload_time_between_interruptions_seconds_sum")).isZero();
    }

    @Test
    void mapIsBoundedAndFinishingFreesRoom() {
        up(NS, "w1", at(0));
        up(NS, "w2", at(0));
        up("other", "w1", at(0));
        up(NS, "w4", at(0)); // over the cap of 3

        Scrape full = Scrape.of(registry);
        assertThat(full.all("sluice_workload_uptime_seconds")).hasSize(3);
        assertThat(full.find("sluice_workload_uptime_seconds", "namespace", NS, "workload", "w4")).isEmpty();
        assertThat(full.value("sluice_workload_availability_untracked_total")).isEqualTo(1.0);

        metrics.workloadFinished(NS, "w1", at(10));
        up(NS, "w5", at(20));
        clock.now = at(30);
        assertThat(Scrape.of(registry).value("sluice_workload_uptime_seconds", "namespace", NS, "workload", "w5"))
                .isEqualTo(10.0);
        assertThat(metrics.trackedWorkloads()).isEqualTo(3);
    }

    @Test
    void perWorkloadSeriesReachPrometheusThroughACompositeRegistry() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(prometheus);
        KueueMetrics viaComposite = new KueueMetrics(composite, clock, 10);

        viaComposite.workloadStarted(NS, JOBSET, at(0));
        viaComposite.workloadReady(NS, JOBSET, at(0));
        viaComposite.admitted("cluster-queue", 1);
        clock.now = at(Duration.ofHours(1).toSeconds());

        Scrape scrape = Scrape.of(prometheus);
        assertThat(scrape.value("sluice_workload_uptime_seconds", "namespace", NS, "workload", JOBSET))
                .isEqualTo(3600.0);
        assertThat(scrape.value("kueue_admitted_workloads_total", "cluster_queue", "cluster-queue")).isEqualTo(1.0);
    }

    @Test
    void rejectsEventsWithoutNameOrTime() {
        assertThatThrownBy(() -> up(NS, null, at(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace and a name");
        assertThatThrownBy(() -> metrics.workloadInterrupted(NS, JOBSET, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("time of the event");
        assertThatThrownBy(() -> new KueueMetrics(registry, clock, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
