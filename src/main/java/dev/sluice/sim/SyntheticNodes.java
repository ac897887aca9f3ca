package dev.sluice.sim;

import dev.sluice.engine.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code --nodes blocks=4,racks=4,hosts=8,cpu=96,nvidia.com/gpu=8}: a synthetic cluster of blocks × racks × hosts
 * Ready nodes, each with the same allocatable, labelled with its domain at each of three topology levels (block,
 * rack, host; the labels {@link #DEFAULT_LEVELS} unless {@code --node-levels} names others), and the Topology of
 * those levels ({@code --topology NAME}, default {@link #DEFAULT_TOPOLOGY}). Domain values are unique in the cluster:
 * block {@code b1}, rack {@code b1-r2}, host (and node name) {@code b1-r2-h3}.
 */
public record SyntheticNodes(int blocks, int racks, int hosts, Map<String, String> allocatable, List<String> levels,
                             String topologyName) {

    public static final List<String> DEFAULT_LEVELS = List.of("cloud.google.com/gce-topology-block",
            "cloud.google.com/gce-topology-subblock", dev.sluice.engine.tas.Topology.HOSTNAME);
    public static final String DEFAULT_TOPOLOGY = "default";
    /** What each node offers unless the flag says otherwise (Kueue's TAS benchmark nodes: 96 cpu, 256Gi, 110 pods). */
    static final Map<String, String> DEFAULT_ALLOCATABLE = Map.of("cpu", "96", "memory", "256Gi", "pods", "110");
    /** More would take the simulator's memory, not show anything more. */
    static final int MAX_NODES = 100_000;
    private static final Set<String> COUNTS = Set.of("blocks", "racks", "hosts");
    /** Resource names without a domain that Kubernetes knows (others need one, e.g. nvidia.com/gpu). */
    private static final Set<String> PLAIN_RESOURCES = Set.of("cpu", "memory", "pods", "ephemeral-storage");

    public SyntheticNodes {
        allocatable = Map.copyOf(allocatable);
        levels = List.copyOf(levels);
    }

    public int count() {
        return blocks * racks * hosts;
    }

    /**
     * Parses the flags' values; {@code levels} (comma-separated, three labels) and {@code topology} may be null for
     * the defaults.
     */
    public static SyntheticNodes parse(String spec, String levels, String topology) throws SimOptions.UsageException {
        Map<String, Integer> counts = new LinkedHashMap<>(Map.of("blocks", 1, "racks", 1, "hosts", 1));
        Map<String, String> allocatable = new TreeMap<>(DEFAULT_ALLOCATABLE);
        if (spec.isBlank()) {
            throw new SimOptions.UsageException("--nodes needs KEY=VALUE pairs, e.g. blocks=4,racks=4,hosts=8,cpu=96");
        }
        for (String pair : spec.split(",", -1)) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new SimOptions.UsageException("--nodes: \"" + pair + "\" is not KEY=VALUE (e.g. racks=4 or cpu=96)");
            }
            String key = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            if (COUNTS.contains(key)) {
                counts.put(key, count(key, value));
            } else if (isResourceName(key)) {
                allocatable.put(key, quantity(key, value));
            } else {
                throw new SimOptions.UsageException("--nodes: unknown key \"" + key + "\"; the keys are blocks, racks,"
                        + " hosts (counts) and resource names (cpu, memory, pods, ephemeral-storage, hugepages-2Mi,"
                        + " or a name with a domain such as nvidia.com/gpu or google.com/tpu)");
            }
        }
        long total = (long) counts.get("blocks") * counts.get("racks") * counts.get("hosts");
        if (total > MAX_NODES) {
            throw new SimOptions.UsageException("--nodes: " + total + " nodes is more than the simulator takes ("
                    + MAX_NODES + "); use fewer blocks, racks or hosts");
        }
        List<String> labels = DEFAULT_LEVELS;
        if (levels != null) {
            labels = List.of(levels.split(",", -1)).stream().map(String::trim).toList();
            if (labels.size() != 3 || labels.stream().anyMatch(String::isEmpty)) {
                throw new SimOptions.UsageException("--node-levels needs three node labels, block,rack,host, e.g. "
                        + String.join(",", DEFAULT_LEVELS) + "; got \"" + levels + "\"");
            }
            if (labels.stream().distinct().count() != 3) {
                throw new SimOptions.UsageException("--node-levels: each level needs its own label; got \"" + levels + "\"");
            }
        }
        String name = topology == null ? DEFAULT_TOPOLOGY : topology;
        if (!name.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
            throw new SimOptions.UsageException("--topology: \"" + name + "\" is not a valid object name (lower-case"
                    + " letters, digits, '-' and '.')");
        }
        return new SyntheticNodes(counts.get("blocks"), counts.get("racks"), counts.get("hosts"), allocatable, labels,
                name);
    }

    /** The Topology of the three levels. */
    public dev.sluice.api.v1beta2.Topology topology() {
        var t = new dev.sluice.api.v1beta2.Topology();
        t.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(topologyName).build());
        var spec = new dev.sluice.api.v1beta2.TopologySpec();
        List<dev.sluice.api.v1beta2.TopologyLevel> ls = new ArrayList<>();
        for (String label : levels) {
            var l = new dev.sluice.api.v1beta2.TopologyLevel();
            l.setNodeLabel(label);
            ls.add(l);
        }
        spec.setLevels(ls);
        t.setSpec(spec);
        return t;
    }

    /** The nodes, in block, rack, host order, each also carrying {@code extraLabels} (e.g. a flavor's nodeLabels). */
    public List<dev.sluice.engine.tas.TasNode> nodes(Map<String, String> extraLabels) {
        Map<String, Long> milli = new TreeMap<>();
        allocatable.forEach((r, q) -> milli.put(r, Quantity.parse(q).milliValue()));
        List<dev.sluice.engine.tas.TasNode> out = new ArrayList<>(count());
        for (int b = 0; b < blocks; b++) {
            for (int r = 0; r < racks; r++) {
                for (int h = 0; h < hosts; h++) {
                    String block = "b" + b;
                    String rack = block + "-r" + r;
                    String host = rack + "-h" + h;
                    Map<String, String> labels = new LinkedHashMap<>(extraLabels);
                    labels.put(levels.get(0), block);
                    labels.put(levels.get(1), rack);
                    labels.put(levels.get(2), host);
                    labels.putIfAbsent(dev.sluice.engine.tas.Topology.HOSTNAME, host);
                    out.add(new dev.sluice.engine.tas.TasNode(host, labels, milli, List.of(), true, false));
                }
            }
        }
        return out;
    }

    /** The flag as a user would write it back, for messages. */
    public String describe() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "blocks=%d,racks=%d,hosts=%d", blocks, racks,
                hosts));
        allocatable.forEach((r, q) -> sb.append(',').append(r).append('=').append(q));
        return sb.toString();
    }

    private static int count(String key, String value) throws SimOptions.UsageException {
        try {
            int n = Integer.parseInt(value);
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new SimOptions.UsageException("--nodes: " + key + " must be a whole number of at least 1, got \""
                    + value + "\"");
        }
    }

    private static String quantity(String key, String value) throws SimOptions.UsageException {
        try {
            long milli = Quantity.parse(value).milliValue();
            if (milli < 0) {
                throw new IllegalArgumentException("negative");
            }
            return value;
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new SimOptions.UsageException("--nodes: " + key + " must be a quantity of at least 0 such as 96, 500m"
                    + " or 256Gi, got \"" + value + "\"");
        }
    }

    /** A standard resource, hugepages-SIZE, or a domain-prefixed name (Kubernetes' extended resources). */
    static boolean isResourceName(String key) {
        if (PLAIN_RESOURCES.contains(key) || key.matches("hugepages-[0-9]+[KMGTPE]i")) {
            return true;
        }
        int slash = key.indexOf('/');
        return slash > 0 && key.substring(0, slash).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+")
                && key.substring(slash + 1).matches("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    }
}
