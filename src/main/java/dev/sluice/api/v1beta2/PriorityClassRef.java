package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

/** Where a Workload's priority comes from: a WorkloadPriorityClass or a pod PriorityClass (v1beta1's name + source). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PriorityClassRef {

    @JsonPropertyDescription("kueue.x-k8s.io (WorkloadPriorityClass) or scheduling.k8s.io (PriorityClass).")
    @Pattern("^(kueue\\.x-k8s\\.io|scheduling\\.k8s\\.io)$")
    private String group;

    @JsonPropertyDescription("WorkloadPriorityClass or PriorityClass.")
    @Pattern("^(WorkloadPriorityClass|PriorityClass)$")
    private String kind;

    @JsonPropertyDescription("Name of the priority class.")
    private String name;

    public PriorityClassRef() {
    }

    /** A WorkloadPriorityClass by name. */
    public static PriorityClassRef workloadPriorityClass(String name) {
        return new PriorityClassRef(Kueue.WORKLOAD_PRIORITY_CLASS_GROUP, Kueue.WORKLOAD_PRIORITY_CLASS_KIND, name);
    }

    /** A pod PriorityClass (scheduling.k8s.io) by name. */
    public static PriorityClassRef podPriorityClass(String name) {
        return new PriorityClassRef(Kueue.POD_PRIORITY_CLASS_GROUP, Kueue.POD_PRIORITY_CLASS_KIND, name);
    }

    /** True when this names a pod PriorityClass rather than a WorkloadPriorityClass. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isPodPriorityClass() {
        return Kueue.POD_PRIORITY_CLASS_GROUP.equals(group) && Kueue.POD_PRIORITY_CLASS_KIND.equals(kind);
    }

    public PriorityClassRef(String group, String kind, String name) {
        this.group = group;
        this.kind = kind;
        this.name = name;
    }

    public String getGroup() {
        return group;
    }

    public void setGroup(String group) {
        this.group = group;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
