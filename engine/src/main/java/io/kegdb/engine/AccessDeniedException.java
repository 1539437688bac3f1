package io.kegdb.engine;

/**
 * The store refused a read or write because the caller lacks a privilege for it (a replicated store whose
 * nodes check users' privileges); nothing was written. The message names the privilege and what it is on.
 */
public final class AccessDeniedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AccessDeniedException(String message) {
        super(message);
    }
}
