package dev.sluice.engine;

/** Hold stops admitting; HoldAndDrain also evicts what is admitted. */
public enum StopPolicy {
    None, Hold, HoldAndDrain
}
