package dev.sluice.engine.tas;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A topology domain (Kueue's domain and leafDomain, pkg/cache/scheduler/tas_topology_tree.go) with the scratch state
 * of one placement (Kueue's domainState): in the first phase how many pods / slices fit, in the second how many are
 * placed. A leaf also holds its capacity: free (allocatable minus non-TAS pods) and the TAS usage.
 */
final class Domain {
    /** The domain's values joined by ","; a leaf of a hostname topology is identified by the hostname alone. */
    final String id;
    final List<String> levelValues;
    Domain parent;
    final List<Domain> children = new ArrayList<>();

    // leaf only
    TasNode node;
    TreeMap<String, Long> freeCapacity;
    TreeMap<String, Long> tasUsage;

    // placement scratch state
    int podCount;
    int sliceCount;
    int podCountWithLeader;
    int sliceCountWithLeader;
    int leaderCount;

    Domain(String id, List<String> levelValues) {
        this.id = id;
        this.levelValues = List.copyOf(levelValues);
    }

    boolean isLeaf() {
        return children.isEmpty();
    }

    void clearState() {
        podCount = 0;
        sliceCount = 0;
        podCountWithLeader = 0;
        sliceCountWithLeader = 0;
        leaderCount = 0;
    }

    /** Kueue's shallowCloneWithState: the same place in the tree, state of its own. */
    Domain cloneWithState() {
        Domain c = new Domain(id, levelValues);
        c.parent = parent;
        c.children.addAll(children);
        c.podCount = podCount;
        c.sliceCount = sliceCount;
        c.podCountWithLeader = podCountWithLeader;
        c.sliceCountWithLeader = sliceCountWithLeader;
        c.leaderCount = leaderCount;
        return c;
    }

    static String idOf(List<String> values) {
        return String.join(",", values);
    }

    @Override
    public String toString() {
        return id + "{pods=" + podCount + ", slices=" + sliceCount + ", leaders=" + leaderCount + "}";
    }
}
