package dev.sluice.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** A packed map says what the map it was made from says, in the same order, and refuses every change. */
class PackedMapTest {

    private static Map<String, String> source() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("zeta", "1");
        m.put("alpha", null);
        m.put("kueue.x-k8s.io/job-uid", "0b5e-17");
        return m;
    }

    @Test
    void answersAsTheMapItWasMadeFromInItsOrder() {
        Map<String, String> full = source();
        Map<String, String> packed = PackedMap.of(full, UnaryOperator.identity());
        assertThat(packed).isEqualTo(full).hasSameHashCodeAs(full).hasSize(3);
        assertThat(List.copyOf(packed.keySet())).containsExactly("zeta", "alpha", "kueue.x-k8s.io/job-uid");
        assertThat(packed.get("zeta")).isEqualTo("1");
        assertThat(packed.containsKey("alpha")).isTrue();
        assertThat(packed.get("alpha")).isNull();
        assertThat(packed.containsKey("missing")).isFalse();
        assertThat(packed.get("missing")).isNull();
        assertThat(Serialization.asJson(packed)).isEqualTo(Serialization.asJson(full));
        var it = packed.entrySet().iterator();
        it.next();
        it.next();
        it.next();
        assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void refusesChanges() {
        Map<String, String> packed = PackedMap.of(source(), UnaryOperator.identity());
        assertThatThrownBy(() -> packed.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> packed.remove("zeta")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(packed::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> packed.entrySet().iterator().next().setValue("2"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(packed).containsEntry("zeta", "1");
    }

    @Test
    void onlySmallMapsArePacked() {
        Map<String, String> large = new LinkedHashMap<>();
        for (int i = 0; i <= PackedMap.MAX_SIZE; i++) {
            large.put("k" + i, "v" + i);
        }
        assertThat(Compact.packed(large, Compact::shared)).isNotInstanceOf(PackedMap.class).isEqualTo(large);
        assertThat(Compact.packed(source(), Compact::shared)).isInstanceOf(PackedMap.class).isEqualTo(source());
        assertThat(Compact.packed(Map.<String, String> of(), Compact::shared)).isEmpty();
        assertThat(Compact.packed((Map<String, String>) null, Compact::shared)).isNull();
    }
}
