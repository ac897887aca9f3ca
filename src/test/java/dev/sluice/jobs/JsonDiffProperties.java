package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** For any two JSON trees, applying diff(a, b) to a with an independent implementation gives b. */
class JsonDiffProperties {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Property(tries = 500)
    void patchTurnsFromIntoTo(@ForAll("trees") JsonNode from, @ForAll("trees") JsonNode to) {
        JsonNode patch = JsonDiff.diff(from, to);
        assertThat((Object) Patches.apply(patch, from)).isEqualTo(to);
        if (from.equals(to)) {
            assertThat(patch).isEmpty();
        }
    }

    @Property(tries = 300)
    void smallEditGivesSmallPatch(@ForAll("objects") JsonNode from, @ForAll("keys") String key,
            @ForAll("leaves") JsonNode value) {
        ObjectNode to = ((ObjectNode) from).deepCopy();
        to.set(key, value);
        JsonNode patch = JsonDiff.diff(from, to);
        assertThat(patch.size()).isLessThanOrEqualTo(1);
        assertThat((Object) Patches.apply(patch, from)).isEqualTo(to);
    }

    @Provide
    Arbitrary<JsonNode> trees() {
        // documents are objects or arrays (admission objects are objects; Parsson reads only structures)
        return Arbitraries.oneOf(object(3), array(3));
    }

    @Provide
    Arbitrary<JsonNode> objects() {
        return object(2);
    }

    @Provide
    Arbitrary<String> keys() {
        // few distinct keys so that trees share structure; include the characters needing escapes
        return Arbitraries.of("a", "b", "a/b", "~", "~1", "/", "", "kueue.x-k8s.io/podset");
    }

    @Provide
    Arbitrary<JsonNode> leaves() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(-2, 2).map(i -> (JsonNode) F.numberNode(i)),
                Arbitraries.of("x", "y", "").map(s -> (JsonNode) F.textNode(s)),
                Arbitraries.of(true, false).map(b -> (JsonNode) F.booleanNode(b)),
                Arbitraries.just((JsonNode) F.nullNode()));
    }

    private Arbitrary<JsonNode> tree(int depth) {
        if (depth == 0) {
            return leaves();
        }
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, leaves()),
                net.jqwik.api.Tuple.of(3, object(depth)),
                net.jqwik.api.Tuple.of(2, array(depth)));
    }

    private Arbitrary<JsonNode> object(int depth) {
        return Arbitraries.maps(keys(), Arbitraries.lazy(() -> tree(depth - 1))).ofMaxSize(4)
                .map(JsonDiffProperties::toObject);
    }

    private Arbitrary<JsonNode> array(int depth) {
        return Arbitraries.lazy(() -> tree(depth - 1)).list().ofMaxSize(4).map(JsonDiffProperties::toArray);
    }

    private static JsonNode toObject(Map<String, JsonNode> m) {
        ObjectNode o = F.objectNode();
        m.forEach(o::set);
        return o;
    }

    private static JsonNode toArray(List<JsonNode> l) {
        ArrayNode a = F.arrayNode();
        l.forEach(a::add);
        return a;
    }
}
