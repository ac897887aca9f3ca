package dev.sluice.engine;

/** A node taint that a flavor's nodes carry (effect NoSchedule, PreferNoSchedule or NoExecute). */
public record Taint(String key, String value, String effect) {
    public Taint {
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }
}
