package dev.sluice.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;

/** Exactly one of a kubeconfig or a ClusterProfile. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "[has(self.kubeConfig),has(self.clusterProfileRef)].filter(x,x==true).size() == 1",
        message = "exactly one of the fields in [kubeConfig clusterProfileRef] must be set")
public class ClusterSource {

    @JsonPropertyDescription("The worker cluster's kubeconfig.")
    private KubeConfig kubeConfig;

    @JsonPropertyDescription("The worker cluster's ClusterProfile.")
    private ClusterProfileReference clusterProfileRef;

    public KubeConfig getKubeConfig() {
        return kubeConfig;
    }

    public void setKubeConfig(KubeConfig kubeConfig) {
        this.kubeConfig = kubeConfig;
    }

    public ClusterProfileReference getClusterProfileRef() {
        return clusterProfileRef;
    }

    public void setClusterProfileRef(ClusterProfileReference clusterProfileRef) {
        this.clusterProfileRef = clusterProfileRef;
    }
}
