package dev.sluice.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.jobs.BatchJobKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 18: the job cache keeps a finished job without its pod template, and any other job whole. */
class JobItemStoreTest {

    static GenericKubernetesResource job() throws Exception {
        try (InputStream in = JobItemStoreTest.class.getResourceAsStream("/seeds/ack-kube-queue/job-queued.yaml")) {
            GenericKubernetesResource job = Serialization.unmarshal(in, GenericKubernetesResource.class);
            job.getMetadata().setNamespace("ns");
            return job;
        }
    }

    @Test
    void aFinishedJobIsStoredWithoutItsTemplateAndALaterEventBringsItBackWhole() throws Exception {
        JobItemStore store = new JobItemStore(new BatchJobKind());
        GenericKubernetesResource running = job();
        running.setAdditionalProperty("status", Map.of("active", 1));
        store.put("ns/" + running.getMetadata().getName(), running);
        assertThat(Serialization.asJson(store.get("ns/" + running.getMetadata().getName()))).contains("\"containers\"");

        GenericKubernetesResource done = job();
        done.setAdditionalProperty("status", Map.of("succeeded", 1,
                "conditions", List.of(Map.of("type", "Complete", "status", "True"))));
        store.put("ns/" + done.getMetadata().getName(), done);
        String cached = Serialization.asJson(store.get("ns/" + done.getMetadata().getName()));
        assertThat(cached).doesNotContain("\"containers\"").contains("\"Complete\"");

        // the finish undone (not a batch/v1 Job's way, but a watch event is the whole object): whole again
        GenericKubernetesResource again = job();
        store.put("ns/" + again.getMetadata().getName(), again);
        assertThat(Serialization.asJson(store.get("ns/" + again.getMetadata().getName()))).contains("\"containers\"");
    }

    @Test
    void aStoredJobPutAgainFinishedIsKeptAsItIs() throws Exception {
        JobItemStore store = new JobItemStore(new BatchJobKind());
        GenericKubernetesResource held = job();
        store.put("ns/" + held.getMetadata().getName(), held);
        GenericKubernetesResource stored = store.get("ns/" + held.getMetadata().getName());
        stored.setAdditionalProperty("status", Map.of("succeeded", 1,
                "conditions", List.of(Map.of("type", "Complete", "status", "True"))));
        String before = Serialization.asJson(stored);

        store.put("ns/" + held.getMetadata().getName(), stored); // its template is packed: nothing to drop in place

        assertThat(Serialization.asJson(store.get("ns/" + held.getMetadata().getName()))).isEqualTo(before)
                .contains("\"containers\"");
    }
}
