package io.editlock.limits;

/** A limit's answer to one request. */
public enum Verdict {
    ALLOWED,
    REFUSED
}
