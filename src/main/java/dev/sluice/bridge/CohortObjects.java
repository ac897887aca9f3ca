package dev.sluice.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.conversion.ConversionException;
import dev.sluice.api.conversion.KueueConversion;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.FairSharing;
import dev.sluice.engine.CohortSpec;
import dev.sluice.engine.ResourceGroupSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;

/**
 * Kueue's Cohort objects as the engine's {@link CohortSpec}: parent, its own quota pool (nominalQuota,
 * borrowingLimit, lendingLimit per flavor and resource) and fair-sharing weight. v1beta2 is the hub; a v1beta1
 * Cohort (what the controller watches) is converted to it first, so both versions are read by the same rules.
 */
public final class CohortObjects {

    private CohortObjects() {
    }

    public static CohortSpec cohort(dev.sluice.api.v1beta1.Cohort cohort) {
        JsonNode tree = Serialization.jsonMapper().valueToTree(cohort);
        try {
            return cohort(Serialization.jsonMapper().treeToValue(KueueConversion.convert(tree, KueueConversion.V1BETA2),
                    Cohort.class));
        } catch (ConversionException e) {
            throw new InvalidObjectException("Cohort " + cohort.getMetadata().getName(), "spec", e.getMessage());
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidObjectException("Cohort " + cohort.getMetadata().getName(), "spec",
                    "cannot be read as a v1beta2 Cohort: " + e.getMessage());
        }
    }

    public static CohortSpec cohort(Cohort cohort) {
        String name = cohort.getMetadata().getName();
        String where = "Cohort " + name;
        var spec = cohort.getSpec() == null ? new dev.sluice.api.v1beta2.CohortSpec() : cohort.getSpec();
        List<ResourceGroupSpec> groups = QueueObjects.resourceGroups(spec.getResourceGroups(), where);
        return new CohortSpec(name, spec.getParentName(), groups, weight(spec.getFairSharing(), where));
    }

    /** spec.fairSharing.weight as a number (null = Kueue's default 1); negative weights are refused with the field. */
    public static Double weight(FairSharing fairSharing, String where) {
        return weight(fairSharing == null ? null : fairSharing.getWeight(), where);
    }

    public static Double weight(io.fabric8.kubernetes.api.model.Quantity weight, String where) {
        if (weight == null) {
            return null;
        }
        long milli;
        try {
            milli = dev.sluice.engine.Quantity.parse(weight.toString()).milliValue();
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new InvalidObjectException(where, "spec.fairSharing.weight", "not a valid quantity: " + weight);
        }
        // Kueue reads the weight in milli-units too: 0.0001 is 0
        double value = milli / 1000.0;
        if (value < 0) {
            throw new InvalidObjectException(where, "spec.fairSharing.weight", "must not be negative, got " + weight);
        }
        return value;
    }
}
