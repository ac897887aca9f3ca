package dev.sluice.bridge;

import dev.sluice.engine.Quantity;

/** Kubernetes quantities of API objects to the engine's exact milli-units, naming the field on bad input. */
public final class Quantities {

    private Quantities() {
    }

    public static long milli(io.fabric8.kubernetes.api.model.Quantity quantity, String object, String field) {
        if (quantity == null) {
            throw new InvalidObjectException(object, field, "required; set a quantity such as \"10\" or \"500m\"");
        }
        try {
            long milli = Quantity.parse(quantity.toString()).milliValue();
            if (milli < 0) {
                throw new InvalidObjectException(object, field, "must not be negative, got " + quantity);
            }
            return milli;
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new InvalidObjectException(object, field, "not a valid quantity: " + e.getMessage());
        }
    }

    public static Long milliOrNull(io.fabric8.kubernetes.api.model.Quantity quantity, String object, String field) {
        return quantity == null ? null : milli(quantity, object, field);
    }

    /** The canonical quantity string for an amount in milli-units, e.g. 24000 → "24". */
    public static io.fabric8.kubernetes.api.model.Quantity of(long milli) {
        return new io.fabric8.kubernetes.api.model.Quantity(Quantity.formatMilli(milli));
    }
}
