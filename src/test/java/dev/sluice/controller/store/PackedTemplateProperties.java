package dev.sluice.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.jobs.BatchJobKind;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobSetKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 18: whatever a live job's pod templates hold (any JSON: numbers of every size, decimals, booleans, nulls,
 * empty objects and lists, any text), the job cache answers exactly what was put, the tree with its value types and
 * its JSON, for a Job and for a JobSet of several replicated jobs; and the next event with the same templates keeps
 * the same bytes.
 */
class PackedTemplateProperties {

    @Property(tries = 300)
    void aLiveJobReadsBackAsPutWhateverItsTemplatesHold(@ForAll("values") Object extra, @ForAll("values") Object other,
            @ForAll boolean jobSet) {
        String json = jobSet ? jobSet(extra, other) : job(extra);
        JobKind kind = jobSet ? new JobSetKind() : new BatchJobKind();
        GenericKubernetesResource expected = Serialization.unmarshal(json, GenericKubernetesResource.class);
        StrippedItemStore.strip(expected);
        JobItemStore store = new JobItemStore(kind);

        store.put("ns/j", Serialization.unmarshal(json, GenericKubernetesResource.class));

        GenericKubernetesResource cached = store.get("ns/j");
        assertThat(cached.getAdditionalProperties()).isEqualTo(expected.getAdditionalProperties());
        assertThat(Serialization.asJson(cached)).isEqualTo(Serialization.asJson(expected));
        List<PackedTemplate> packed = new ArrayList<>();
        JobItemStore.collect(cached.getAdditionalProperties(), packed);
        assertThat(packed).hasSize(jobSet ? 2 : 1);
        assertThat(LiveJobCacheTest.parsedTemplates(cached.getAdditionalProperties())).isZero();

        store.put("ns/j", Serialization.unmarshal(json, GenericKubernetesResource.class));
        List<PackedTemplate> again = new ArrayList<>();
        JobItemStore.collect(store.get("ns/j").getAdditionalProperties(), again);
        for (int i = 0; i < packed.size(); i++) {
            assertThat(again.get(i)).isSameAs(packed.get(i));
        }
    }

    private static String template(Object extra) {
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("metadata", Map.of("labels", Map.of("app", "x")));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("containers", List.of(Map.of("name", "c", "resources", Map.of("requests", Map.of("cpu", "1")))));
        spec.put("restartPolicy", "Never");
        spec.put("x-extra", extra);
        template.put("spec", spec);
        return Serialization.asJson(template);
    }

    private static String job(Object extra) {
        return "{\"apiVersion\": \"batch/v1\", \"kind\": \"Job\", \"metadata\": {\"name\": \"j\", \"namespace\": \"ns\","
                + " \"resourceVersion\": \"7\"}, \"spec\": {\"suspend\": true, \"template\": " + template(extra)
                + "}, \"status\": {}}";
    }

    private static String jobSet(Object extra, Object other) {
        return "{\"apiVersion\": \"jobset.x-k8s.io/v1alpha2\", \"kind\": \"JobSet\", \"metadata\": {\"name\": \"j\","
                + " \"namespace\": \"ns\", \"resourceVersion\": \"7\"}, \"spec\": {\"suspend\": true, \"replicatedJobs\": ["
                + "{\"name\": \"a\", \"replicas\": 1, \"template\": {\"spec\": {\"parallelism\": 2, \"template\": "
                + template(extra) + "}}}, {\"name\": \"b\", \"replicas\": 2, \"template\": {\"spec\": {\"template\": "
                + template(other) + "}}}]}}";
    }

    @Provide
    Arbitrary<Object> values() {
        return tree(3);
    }

    private static Arbitrary<Object> tree(int depth) {
        Arbitrary<Object> leaf = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(12).map(s -> (Object) s),
                Arbitraries.strings().withChars("äö€😀\u0000\"\\/\n").ofMaxLength(6).map(s -> (Object) s),
                Arbitraries.integers().map(i -> (Object) i),
                Arbitraries.longs().map(l -> (Object) l),
                Arbitraries.bigIntegers().between(BigInteger.valueOf(Long.MAX_VALUE).multiply(BigInteger.TEN),
                        BigInteger.valueOf(Long.MAX_VALUE).pow(2)).map(b -> (Object) b),
                Arbitraries.doubles().map(d -> (Object) d),
                Arbitraries.of(true, false).map(b -> (Object) b),
                Arbitraries.just(null));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<Object> child = Arbitraries.lazy(() -> tree(depth - 1));
        Arbitrary<Object> list = child.list().ofMaxSize(4).map(l -> (Object) l);
        Arbitrary<Object> map = Arbitraries.maps(Arbitraries.strings().alpha().ofMaxLength(8), child).ofMaxSize(4)
                .map(m -> (Object) new LinkedHashMap<>(m));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, leaf), net.jqwik.api.Tuple.of(1, list),
                net.jqwik.api.Tuple.of(1, map));
    }
}
