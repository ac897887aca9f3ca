package dev.sluice.controller.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.bridge.JobWorkloads;
import dev.sluice.bridge.PriorityClasses;
import dev.sluice.controller.store.JobItemStore;
import dev.sluice.controller.store.LiveJobCacheTest;
import dev.sluice.controller.store.LiveJobFixtures.Fixture;
import dev.sluice.controller.store.LiveJobFixtures;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.PodSetTemplate;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 18: JobSync reads a live job's pod templates from the job cache, which keeps them packed ({@link
 * PackedTemplate}); every write and every Workload it builds from the cached job is the one the whole object gives:
 * create and outOfDate (the Workload and its engine form), replaceIfValid (the pod sets), start (the patch that puts
 * the flavors into the templates and releases the hold), the two writes of a stop (hold and mark; templates restored
 * from the Workload) and holdIfRunning. The cached job is never changed by them.
 */
class JobWritesThroughCacheTest {

    /** Every priority class exists (the fixtures name some), at 100; no global default. */
    private static final PriorityClasses PRIORITIES = new PriorityClasses() {
        @Override
        public Optional<Integer> workloadPriorityClass(String name) {
            return Optional.of(100);
        }

        @Override
        public Optional<Integer> priorityClass(String name) {
            return Optional.of(100);
        }

        @Override
        public Optional<Named> globalDefault() {
            return Optional.empty();
        }
    };

    /** The job as the store keeps it and as it kept it before (stripped only), read back. */
    private record Both(GenericKubernetesResource cached, GenericKubernetesResource whole) {
    }

    private static Both cache(JobKind kind, String key, GenericKubernetesResource job) {
        GenericKubernetesResource whole = LiveJobCacheTest.asBefore(kind, job);
        JobItemStore store = new JobItemStore(kind);
        store.put(key, LiveJobFixtures.reparsed(job));
        return new Both(store.get(key), whole);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.sluice.controller.store.LiveJobFixtures#held")
    void everyWriteFromTheCachedJobIsTheOneTheWholeJobGives(Fixture f) {
        JobKind kind = f.kind();
        Both held = cache(kind, f.key(), f.job());
        String cachedBefore = Serialization.asJson(held.cached());

        // create, outOfDate: the Workload and its engine form
        var wlCached = JobWorkloads.forJob(kind, held.cached(), PRIORITIES);
        var wlWhole = JobWorkloads.forJob(kind, held.whole(), PRIORITIES);
        assertThat(Serialization.asJson(wlCached)).isEqualTo(Serialization.asJson(wlWhole));
        assertThat(EngineWorkloads.toEngine(wlCached, 0)).isEqualTo(EngineWorkloads.toEngine(wlWhole, 0));
        // replaceIfValid
        assertThat(kind.podSets(held.cached())).isEqualTo(kind.podSets(held.whole()));

        // start: flavors into the templates, hold released
        var starts = LiveJobFixtures.starts(kind, held.whole());
        GenericKubernetesResource startedCached = Serialization.clone(held.cached());
        kind.start(startedCached, starts);
        GenericKubernetesResource startedWhole = Serialization.clone(held.whole());
        kind.start(startedWhole, starts);
        var startPatch = JobWrites.patch(held.cached(), startedCached);
        assertThat(startPatch.toString()).isEqualTo(JobWrites.patch(held.whole(), startedWhole).toString());
        if (!kind.podTemplates(held.whole()).isEmpty()) {
            assertThat(startPatch.toString()).contains("sluice.dev/pool");
        }

        // holdIfRunning and the first write of a stop, on the running job
        Both running = cache(kind, f.key(), LiveJobFixtures.running(kind, f.job()));
        GenericKubernetesResource holdCached = Serialization.clone(running.cached());
        kind.hold(holdCached);
        GenericKubernetesResource holdWhole = Serialization.clone(running.whole());
        kind.hold(holdWhole);
        assertThat(JobWrites.patch(running.cached(), holdCached).toString())
                .isEqualTo(JobWrites.patch(running.whole(), holdWhole).toString());
        var stopCached = JobWrites.patch(running.cached(), JobWrites.holdToStop(kind, running.cached()));
        assertThat(stopCached.toString())
                .isEqualTo(JobWrites.patch(running.whole(), JobWrites.holdToStop(kind, running.whole())).toString());

        // finishStop: held and marked, the templates put back as the Workload recorded them
        GenericKubernetesResource stopped = JobWrites.holdToStop(kind, running.whole());
        stopped.setAdditionalProperty("status", new LinkedHashMap<>(Map.of("active", 0)));
        stopped.getMetadata().setResourceVersion(stopped.getMetadata().getResourceVersion() + "2");
        Both marked = cache(kind, f.key(), stopped);
        List<PodSetTemplate> originals = kind.podSets(held.whole());
        var restoreCached = JobWrites.patch(marked.cached(), JobWrites.restoreAfterStop(kind, marked.cached(), originals));
        assertThat(restoreCached.toString()).isEqualTo(
                JobWrites.patch(marked.whole(), JobWrites.restoreAfterStop(kind, marked.whole(), originals)).toString());
        if (!kind.podTemplates(held.whole()).isEmpty()) {
            assertThat(restoreCached.toString()).contains("nodeSelector");
        }

        assertThat(Serialization.asJson(held.cached())).as("the cached job, after every reader").isEqualTo(cachedBefore);
    }
}
