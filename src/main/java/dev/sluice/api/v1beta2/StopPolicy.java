package dev.sluice.api.v1beta2;

/** Whether a queue admits new work,  and whether it also evicts what it admitted. */
public enum StopPolicy {
    None, Hold, HoldAndDrain
}
