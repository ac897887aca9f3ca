package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
        try (EventRecorder events = new EventRecorder(client, NO_METRICS, clock)) {
            HasMetadata wl = object("wl");
            for (int i = 0; i < 200; i++) {
                events.warning(wl, "Inadmissible", "ClusterQueue cq is inactive");
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> events.waiting() == 0
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
            await().atMost(Duration.ofSeconds(20)).until(() -> events.waiting() == 0 && events("wl").size() == 2
                    && events("wl").stream().anyMatch(e -> e.getCount() == 201));
        }
    }

    @Test
    void afterTheWindowOrOnceTheEventIsGoneANewEventIsCreated() {
        TestClock clock = new TestClock();
        try (EventRecorder events = new EventRecorder(client, NO_METRICS, clock)) {
            HasMetadata job = object("job");
            events.normal(job, "Suspended", "Job is waiting; suspended");
            await().atMost(Duration.ofSeconds(20)).until(() -> events.waiting() == 0 && events("job").size() == 1);
            clock.advance(EventRecorder.WINDOW.plusSeconds(1));
            events.normal(job, "Suspended", "Job is waiting; suspended");
            await().atMost(Duration.ofSeconds(20)).until(() -> events.waiting() == 0 && events("job").size() == 2);
            assertThat(events("job")).allMatch(e -> e.getCount() == 1);

            // the Event expired (the API server's event TTL): the next equal one is created anew, not lost
            client.v1().events().inNamespace("ns").delete();
            await().atMost(Duration.ofSeconds(20)).until(() -> events("job").isEmpty());
            events.normal(job, "Suspended", "Job is waiting; suspended");
            await().atMost(Duration.ofSeconds(20)).until(() -> events.waiting() == 0 && events("job").size() == 1);
            assertThat(events("job").get(0).getCount()).isEqualTo(1);
        }
    }
}
