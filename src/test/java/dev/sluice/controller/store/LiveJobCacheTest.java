package dev.sluice.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.controller.store.LiveJobFixtures.Fixture;
import dev.sluice.jobs.JobKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 18: the job cache holds no parsed pod template of a live job (each is its deflated JSON, {@link
 * PackedTemplate}), a finished job none at all, yet what the cache answers is what was put (after the stripping every
 * store does): the same JSON and the same tree, for every kind's real objects, held, running and finished.
 */
public class LiveJobCacheTest {

    enum State {
        held, running, finished
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Fixture f : LiveJobFixtures.held()) {
            for (State state : State.values()) {
                if (state != State.finished || finishedStatus(f.kind()) != null) {
                    out.add(Arguments.of(f, state));
                }
            }
        }
        return out.stream();
    }

    /** A status that finishes a job of the kind (the kinds whose templates are dropped once finished). */
    static Object finishedStatus(JobKind kind) {
        String json = switch (kind.kind()) {
            case "Job" -> "{\"conditions\": [{\"type\": \"Complete\", \"status\": \"True\"}], \"succeeded\": 1}";
            case "JobSet" -> "{\"conditions\": [{\"type\": \"Completed\", \"status\": \"True\"}]}";
            case "TFJob", "PyTorchJob", "MPIJob" -> "{\"conditions\": [{\"type\": \"Succeeded\", \"status\": \"True\"}]}";
            case "RayJob" -> "{\"jobDeploymentStatus\": \"Complete\", \"jobStatus\": \"SUCCEEDED\"}";
            default -> null;
        };
        return json == null ? null : Serialization.unmarshal(json, Map.class);
    }

    static GenericKubernetesResource inState(Fixture f, State state) {
        return switch (state) {
            case held -> LiveJobFixtures.reparsed(f.job());
            case running -> LiveJobFixtures.running(f.kind(), f.job());
            case finished -> {
                GenericKubernetesResource done = Serialization.clone(LiveJobFixtures.running(f.kind(), f.job()));
                done.setAdditionalProperty("status", finishedStatus(f.kind()));
                yield LiveJobFixtures.reparsed(done);
            }
        };
    }

    /** What the store kept before issue 18's second part: the object stripped, and a finished one's templates dropped. */
    public static GenericKubernetesResource asBefore(JobKind kind, GenericKubernetesResource job) {
        GenericKubernetesResource expected = LiveJobFixtures.reparsed(job);
        StrippedItemStore.strip(expected);
        JobItemStore.trimIfFinished(kind, expected);
        return expected;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aCachedJobReadsAsItWasPutWithNoParsedTemplateKept(Fixture f, State state) {
        JobKind kind = f.kind();
        GenericKubernetesResource job = inState(f, state);
        GenericKubernetesResource expected = asBefore(kind, job);
        int templates = kind.podTemplates(expected).size();
        JobItemStore store = new JobItemStore(kind);

        store.put(f.key(), job);

        GenericKubernetesResource cached = store.get(f.key());
        assertThat(Serialization.asJson(cached)).isEqualTo(Serialization.asJson(expected));
        assertThat(cached.getAdditionalProperties()).isEqualTo(expected.getAdditionalProperties());
        assertThat(expected.getAdditionalProperties()).isEqualTo(cached.getAdditionalProperties());
        assertThat(Serialization.asJson(cached)).doesNotContain("managedFields", StrippedItemStore.LAST_APPLIED);
        // what the store holds: no pod template as a parsed tree, live or finished
        if (templates > 0) {
            assertThat(parsedTemplates(cached.getAdditionalProperties())).as("parsed pod templates kept").isZero();
        }
        List<PackedTemplate> packed = new ArrayList<>();
        JobItemStore.collect(cached.getAdditionalProperties(), packed);
        assertThat(packed).as("packed templates").hasSize(state == State.finished ? 0 : templates);
        if (state != State.finished && templates > 0) {
            assertThat(Serialization.asJson(cached)).contains("\"containers\"");
        }
        // the readers of a cached job answer the same
        assertThat(kind.isSuspended(cached)).isEqualTo(kind.isSuspended(expected));
        assertThat(kind.finished(cached)).isEqualTo(kind.finished(expected));
        if (state != State.finished) {
            assertThat(kind.podSets(cached)).isEqualTo(kind.podSets(expected));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.sluice.controller.store.LiveJobFixtures#held")
    void theNextEventKeepsUnchangedTemplatesAsTheyWereAndTakesChangedOnesAnew(Fixture f) {
        JobKind kind = f.kind();
        JobItemStore store = new JobItemStore(kind);
        store.put(f.key(), LiveJobFixtures.reparsed(f.job()));
        List<PackedTemplate> first = packed(store.get(f.key()));

        // a status update: the same templates, used again (no new bytes)
        GenericKubernetesResource statusUpdate = LiveJobFixtures.reparsed(f.job());
        statusUpdate.setAdditionalProperty("status", Map.of("active", 0));
        store.put(f.key(), statusUpdate);
        List<PackedTemplate> again = packed(store.get(f.key()));
        assertThat(again).hasSameSizeAs(first);
        for (int i = 0; i < first.size(); i++) {
            PackedTemplate kept = again.get(i);
            assertThat(first.stream().anyMatch(p -> p == kept)).as("pod set %d's template used again", i).isTrue();
            assertThat(kept).isEqualTo(first.get(i));
        }

        // started: the templates changed (node selector, toleration, podset label), the cache shows the new ones
        GenericKubernetesResource started = LiveJobFixtures.running(kind, f.job());
        GenericKubernetesResource expected = asBefore(kind, started);
        store.put(f.key(), started);
        assertThat(Serialization.asJson(store.get(f.key()))).isEqualTo(Serialization.asJson(expected));
        if (!first.isEmpty()) {
            assertThat(Serialization.asJson(store.get(f.key()))).contains("sluice.dev/pool");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.sluice.controller.store.LiveJobFixtures#held")
    void aCachedTemplateCannotBeChangedInPlace(Fixture f) {
        JobItemStore store = new JobItemStore(f.kind());
        store.put(f.key(), LiveJobFixtures.reparsed(f.job()));
        List<PackedTemplate> packed = packed(store.get(f.key()));
        assertThat(packed).hasSize(f.kind().podTemplates(LiveJobFixtures.reparsed(f.job())).size());
        for (PackedTemplate template : packed) {
            assertThatThrownBy(() -> template.put("spec", Map.of())).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(template::clear).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> template.entrySet().iterator().next().setValue("x"))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }

    private static List<PackedTemplate> packed(GenericKubernetesResource cached) {
        List<PackedTemplate> out = new ArrayList<>();
        JobItemStore.collect(cached.getAdditionalProperties(), out);
        return out;
    }

    /** Maps with containers (a pod spec) kept as parsed trees, not looking inside packed templates. */
    static int parsedTemplates(Object node) {
        if (node instanceof PackedTemplate) {
            return 0;
        }
        int n = 0;
        if (node instanceof Map<?, ?> map) {
            if (map.containsKey("containers")) {
                n++;
            }
            for (Object v : map.values()) {
                n += parsedTemplates(v);
            }
        } else if (node instanceof List<?> list) {
            for (Object v : list) {
                n += parsedTemplates(v);
            }
        }
        return n;
    }
}
