package dev.sluice.engine.tas;

import java.util.List;

/**
 * Kueue v1beta2's TopologyAssignment as it is written to a Workload's status.admission.podSetAssignments[].
 * topologyAssignment (apis/kueue/v1beta2/workload_types.go): the levels and slices; the full assignment is the union
 * of the slices. Each slice covers domainCount domains; per level either one universal value for all of them or
 * individual values (an optional common prefix and suffix around one root per domain); pod counts universal or
 * individual.
 */
public record WireTopologyAssignment(List<String> levels, List<Slice> slices) {
    public WireTopologyAssignment {
        levels = List.copyOf(levels);
        slices = List.copyOf(slices);
    }

    public record Slice(int domainCount, List<LevelValues> valuesPerLevel, PodCounts podCounts) {
        public Slice {
            valuesPerLevel = List.copyOf(valuesPerLevel);
        }
    }

    /** Exactly one of universal / individual is set. */
    public record LevelValues(String universal, Individual individual) {
        String valueAt(int i) {
            if (universal != null) {
                return universal;
            }
            return (individual.prefix() == null ? "" : individual.prefix()) + individual.roots().get(i)
                    + (individual.suffix() == null ? "" : individual.suffix());
        }
    }

    /** prefix and suffix are null rather than empty, as Kueue writes them. */
    public record Individual(String prefix, String suffix, List<String> roots) {
        public Individual {
            roots = List.copyOf(roots);
        }
    }

    /** Exactly one of universal / individual is set. */
    public record PodCounts(Integer universal, List<Integer> individual) {
        public PodCounts {
            individual = individual == null ? null : List.copyOf(individual);
        }

        int countAt(int i) {
            return universal != null ? universal : individual.get(i);
        }
    }
}
