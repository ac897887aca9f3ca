package dev.sluice.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class QuantityTest {

    @Test
    void parsesKubernetesQuantitiesExactly() {
        assertThat(Quantity.parseMilli("24")).isEqualTo(24_000);
        assertThat(Quantity.parseMilli("500m")).isEqualTo(500);
        assertThat(Quantity.parseMilli("1.5")).isEqualTo(1_500);
        assertThat(Quantity.parseMilli("5G")).isEqualTo(5_000_000_000_000L);
        assertThat(Quantity.parseMilli("1Gi")).isEqualTo(1_073_741_824_000L);
        assertThat(Quantity.parseMilli("2e3")).isEqualTo(2_000_000);
        assertThat(Quantity.parseMilli("1E3")).isEqualTo(1_000_000);
        assertThat(Quantity.parseMilli("100k")).isEqualTo(100_000_000);
        assertThat(Quantity.parseMilli("0.1")).isEqualTo(100);
        assertThat(Quantity.parseMilli("1P")).isEqualTo(1_000_000_000_000_000_000L);
        assertThat(Quantity.parse("1.5Gi").value()).isEqualByComparingTo(new BigDecimal("1610612736"));
    }

    @Test
    void milliValueRoundsUpLikeKubernetes() {
        assertThat(Quantity.parseMilli("1u")).isEqualTo(1);
        assertThat(Quantity.parseMilli("1500u")).isEqualTo(2);
        assertThat(Quantity.parseMilli("0.0001")).isEqualTo(1);
    }

    @Test
    void comparesWithoutFloatingPoint() {
        assertThat(Quantity.parse("1000m")).isEqualTo(Quantity.parse("1"));
        assertThat(Quantity.parse("1Ki").compareTo(Quantity.parse("1k"))).isPositive();
        assertThat(Quantity.parse("0.1").value().add(Quantity.parse("0.2").value()))
                .isEqualByComparingTo(Quantity.parse("300m").value());
    }

    @Test
    void formatsCanonically() {
        assertThat(Quantity.formatMilli(24_000)).isEqualTo("24");
        assertThat(Quantity.formatMilli(500)).isEqualTo("500m");
        assertThat(Quantity.formatMilli(8_000)).isEqualTo("8");
        assertThat(Quantity.formatMilli(1_073_741_824_000L)).isEqualTo("1Gi");
        assertThat(Quantity.formatMilli(5_000_000_000_000L)).isEqualTo("5G");
        assertThat(Quantity.formatMilli(2_048_000)).isEqualTo("2048");
        assertThat(Quantity.formatMilli(0)).isEqualTo("0");
    }

    @Test
    void rejectsBadInputWithAClearMessage() {
        assertThatThrownBy(() -> Quantity.parse("12 cores"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"12 cores\"").hasMessageContaining("500m");
        assertThatThrownBy(() -> Quantity.parse("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Quantity.parse("1Kb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Quantity.parse(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Quantity.parseMilli("100E")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too large");
    }
}
