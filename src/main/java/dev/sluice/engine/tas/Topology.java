package dev.sluice.engine.tas;

import java.util.List;
import java.util.Objects;

/**
 * A Kueue Topology (apis/kueue/v1beta2/topology_types.go): its name and the node label of each level, from the
 * highest (e.g. block) to the lowest (e.g. kubernetes.io/hostname).
 */
public record Topology(String name, List<String> levels) {
    /** The node label Kueue treats specially as the lowest level: each leaf is then one node. */
    public static final String HOSTNAME = "kubernetes.io/hostname";

    public Topology {
        Objects.requireNonNull(name, "topology name");
        levels = List.copyOf(levels);
        if (levels.isEmpty()) {
            throw new IllegalArgumentException("topology " + name + ": at least one level is required");
        }
    }

    public boolean lowestLevelIsHostname() {
        return HOSTNAME.equals(levels.get(levels.size() - 1));
    }

    public String lowestLevel() {
        return levels.get(levels.size() - 1);
    }

    public String highestLevel() {
        return levels.get(0);
    }
}
