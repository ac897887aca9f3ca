package dev.sluice.api.conversion;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Conversion loses nothing: a round trip through the other version gives back the same object, for every kind. */
class ConversionProperties {

    @Property(tries = 2000)
    void v1beta1ToV1beta2AndBackIsTheIdentity(@ForAll("v1beta1") ObjectNode original) throws Exception {
        ObjectNode up = KueueConversion.convert(original, KueueConversion.V1BETA2);
        assertThat(up.get("apiVersion").asText()).isEqualTo(KueueConversion.V1BETA2);
        ObjectNode back = KueueConversion.convert(up, KueueConversion.V1BETA1);
        assertThat(back).as("v1beta2 form %s", up).isEqualTo(original);
    }

    @Property(tries = 2000)
    void v1beta2ToV1beta1AndBackIsTheIdentity(@ForAll("v1beta2") ObjectNode original) throws Exception {
        ObjectNode down = KueueConversion.convert(original, KueueConversion.V1BETA1);
        assertThat(down.get("apiVersion").asText()).isEqualTo(KueueConversion.V1BETA1);
        ObjectNode back = KueueConversion.convert(down, KueueConversion.V1BETA2);
        assertThat(back).as("v1beta1 form %s", down).isEqualTo(original);
    }

    @Property(tries = 1000)
    void theV1beta2FormSpeaksOnlyV1beta2(@ForAll("v1beta1") ObjectNode original) throws Exception {
        ObjectNode up = KueueConversion.convert(original, KueueConversion.V1BETA2);
        assertThat(up.path("spec").has("cohort")).isFalse();
        assertThat(up.path("spec").has("admissionChecks")).isFalse();
        assertThat(up.path("spec").has("priorityClassName")).isFalse();
        assertThat(up.path("spec").has("priorityClassSource")).isFalse();
        assertThat(up.path("status").has("flavorUsage")).isFalse();
        assertThat(up.path("status").has("accumulatedPastExexcutionTimeSeconds")).isFalse();
        assertThat(up.at("/spec/flavorFungibility/whenCanBorrow").asText("")).isNotEqualTo("Borrow");
        assertThat(up.at("/spec/flavorFungibility/whenCanPreempt").asText("")).isNotEqualTo("Preempt");
        assertThat(up.toString()).doesNotContain("\"domains\"");
    }

    @Property(tries = 1000)
    void theV1beta1FormSpeaksOnlyV1beta1(@ForAll("v1beta2") ObjectNode original) throws Exception {
        ObjectNode down = KueueConversion.convert(original, KueueConversion.V1BETA1);
        assertThat(down.path("spec").has("cohortName")).isFalse();
        assertThat(down.path("spec").has("priorityClassRef")).isFalse();
        assertThat(down.path("spec").has("preemptionGates")).isFalse();
        assertThat(down.path("spec").has("concurrentAdmissionPolicy")).isFalse();
        assertThat(down.path("status").has("flavorsUsage") && down.path("kind").asText().equals("LocalQueue")).isFalse();
        assertThat(down.path("status").has("accumulatedPastExecutionTimeSeconds")).isFalse();
        assertThat(down.toString()).doesNotContain("\"slices\"");
    }

    @Property(tries = 500)
    void theInputIsNeverChanged(@ForAll("v1beta2") ObjectNode original) throws Exception {
        ObjectNode copy = original.deepCopy();
        KueueConversion.convert(original, KueueConversion.V1BETA1);
        assertThat(original).isEqualTo(copy);
    }

    @Provide
    Arbitrary<ObjectNode> v1beta1() {
        return Arbitraries.randomValue(random -> new KueueObjects(random, true).any()).withoutEdgeCases();
    }

    @Provide
    Arbitrary<ObjectNode> v1beta2() {
        return Arbitraries.randomValue(random -> new KueueObjects(random, false).any()).withoutEdgeCases();
    }
}
