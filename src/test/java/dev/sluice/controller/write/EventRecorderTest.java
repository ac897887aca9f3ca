package dev.sluice.controller.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.controller.TestClock;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Events correlated as client-go's recorder does: equal events within the window are one Event, counted; repeats that
 * find the earlier one still waiting cost no request of their own.
 */
@EnableKubernetesMockClient(crud = true)
class EventRecorderTest {

    KubernetesMockServer server;
    KubernetesClient client;

    static final dev.sluice.metrics.AdmissionEvents NO_METRICS = (dev.sluice.metrics.AdmissionEvents) java.lang.reflect.Proxy
            .newProxyInstance(EventRecorderTest.class.getClassLoader(),
                    new Class<?>[] {dev.sluice.metrics.AdmissionEvents.class}, (p, m, a) -> null);

    static HasMetadata object(String name) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name).withUid("uid-" + name)
                .endMetadata().build();
    }

    private List<Event> events(String name) {
        return client.v1().events().inNamespace("ns").list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName())).toList();
    }

    @Test
    void equalEventsAreOneEventCountedAndRepeatsWhileWaitingCostNoRequest() {
        TestClock clock = new TestClock();
        try (EventRecorder events = new EventRecorder(client, NO_METRICS, dev.sluice.dashboard.Journal.standard(), clock)) {
            HasMetadata wl = object("wl");
            for (int i = 0; i < 200; i++) {
                events.warning(wl, "Inadmissible", "ClusterQueue cq is inactive");
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> events.idle()
                    && events(wl.getMetadata().getName()).size() == 1
                    && events(wl.getMetadata().getName()).get(0).getCount() == 200);
            Event one = events("wl").get(0);
            assertThat(one.getReason()).isEqualTo("Inadmissible");
            assertThat(one.getType()).isEqualTo("Warning");
            assertThat(one.getInvolvedObject().getUid()).isEqualTo("uid-wl");
            assertThat(events.counts().requests()).as("200 occurrences, a few requests").isLessThan(200);
            assertThat(events.counts().folded() + events.counts().requests()).isEqualTo(200);

            // another message is another Event; the first is counted on
            events.warning(wl, "Inadmissible", "ClusterQueue cq is stopped");
            events.warning(wl, "Inadmissible", "ClusterQueue cq is inactive");
            await().atMost(Duration.ofSeconds(20)).until(() -> events.idle() && events("wl").size() == 2
                    && events("wl").stream().anyMatch(e -> e.getCount() == 201));
        }
    }

    @Test
    void afterTheWindowOrOnceTheEventIsGoneANewEventIsCreated() {
        TestClock clock = new TestClock();
        try (EventRecorder events = new EventRecorder(client, NO_METRICS, dev.sluice.dashboard.Journal.standard(), clock)) {
            HasMetadata job = object("job");
            events.normal(job, "Suspended", "Job is waiting; suspended");
            await().atMost(Duration.ofSeconds(20)).until(() -> events.idle() && events("job").size() == 1);
            clock.advance(EventRecorder.WINDOW.plusSeconds(1));
            events.normal(job, "Suspended", "Job is waiting; suspended");
            await().atMost(Duration.ofSeconds(20)).until(() -> events.idle() && events("job").size() == 2);
            assertThat(events("job")).allMatch(e -> e.getCount() == 1);

            // the Event expired (the API server's event TTL): the next equal one is created anew, not lost
            client.v1().events().inNamespace("ns").delete();
            await().atMost(Duration.ofSeconds(20)).until(() -> events("job").isEmpty());
            events.normal(job, "Suspended", "Job is waiting; suspended");
            await().atMost(Duration.ofSeconds(20)).until(() -> events.idle() && events("job").size() == 1);
            assertThat(events("job").get(0).getCount()).isEqualTo(1);
        }
    }

    @Test
    void aBacklogTheRateCannotDrainIsDroppedAndCountedWhileRepeatsStillFold() {
        java.util.concurrent.atomic.AtomicLong droppedMetric = new java.util.concurrent.atomic.AtomicLong();
        dev.sluice.metrics.AdmissionEvents metrics = (dev.sluice.metrics.AdmissionEvents) java.lang.reflect.Proxy
                .newProxyInstance(getClass().getClassLoader(), new Class<?>[] {dev.sluice.metrics.AdmissionEvents.class},
                        (p, m, a) -> {
                            if (m.getName().equals("eventsDropped")) {
                                droppedMetric.addAndGet((Long) a[0]);
                            }
                            return null;
                        });
        // one request now, the next in 1,000 s: everything after the first waits for the rate
        EventRate slow = new EventRate(0.001, 1);
        int backlog = 10;
        EventRecorder events = new EventRecorder(client, metrics, dev.sluice.dashboard.Journal.standard(),
                java.time.Clock.systemUTC(), slow, backlog);
        try {
            events.normal(object("first"), "QuotaReserved", "Quota reserved in ClusterQueue cq");
            await().atMost(Duration.ofSeconds(20)).until(() -> events("first").size() == 1);
            for (int i = 0; i < backlog + 5; i++) {
                events.normal(object("wl-" + i), "QuotaReserved", "Quota reserved in ClusterQueue cq");
            }
            events.normal(object("wl-0"), "QuotaReserved", "Quota reserved in ClusterQueue cq"); // a repeat: folded
            assertThat(events.waiting()).isEqualTo(backlog);
            assertThat(events.counts().dropped()).isEqualTo(5);
            assertThat(droppedMetric.get()).isEqualTo(5);
            assertThat(events.counts().folded()).isEqualTo(1);
            assertThat(events.counts().requests()).as("the rate holds the rest back").isEqualTo(1);
        } finally {
            events.close(); // what waits is sent at once on close
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> events.idle());
        assertThat(events("wl-0")).singleElement().satisfies(e -> assertThat(e.getCount()).isEqualTo(2));
    }

    @Test
    void theBucketAllowsItsBurstThenOneRequestPerPeriod() {
        long[] now = {0};
        EventRate.Bucket bucket = new EventRate(20, 3).bucket(() -> now[0]);
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isZero();
        long wait = bucket.take();
        assertThat(wait).as("a twentieth of a second").isEqualTo(50_000_000L);
        now[0] += wait;
        assertThat(bucket.take()).isZero();
        now[0] += 10_000_000_000L; // idle 10 s: refilled up to the burst, no more
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isPositive();
        assertThat(EventRate.UNLIMITED.bucket(() -> 0).take()).isZero();
    }

    @Test
    void badRatesAreRefusedNamingTheSetting() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new EventRate(20, 0))
                .hasMessageContaining("sluice.events.burst");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new EventRate(Double.NaN, 30))
                .hasMessageContaining("sluice.events.qps");
    }
}
