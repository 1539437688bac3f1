package io.kegdb.raft.security;

import com.alipay.sofa.jraft.error.RaftError;
import com.alipay.sofa.jraft.rpc.RpcRequests;
import com.alipay.sofa.jraft.util.RpcFactoryHelper;

/**
 * The answer a node sends to a request it refuses, a text that KegDB's clients recognise,
 * {@code "KegDB refused (KIND): reason"}: to SOFAJRaft's requests inside SOFAJRaft's {@code ErrorResponse}
 * with code {@code EPERM} (so that SOFAJRaft's own clients report it as they report any error), to KegDB's
 * requests as the plain string (a client with SOFAJRaft under other package names, as the single jar
 * relocates it, still reads it).
 *
 * @param kind why: the caller's identity does not allow the call, or the caller spoke plain text to a TLS node
 * @param reason one line for the caller
 */
record Refusal(Kind kind, String reason) {

    enum Kind {
        /** The caller's certificate (or its lack) does not allow this request. */
        NOT_AUTHORIZED,
        /** The caller spoke plain text to a node that requires TLS. */
        TLS_REQUIRED
    }

    private static final String PREFIX = "KegDB refused (";

    /** The answer to a refused request of class {@code interest}. */
    Object toResponse(String interest) {
        String text = PREFIX + kind + "): " + reason;
        return interest != null && interest.startsWith(KEGDB_PACKAGE) ? text
                : RpcFactoryHelper.responseFactory().newResponse(null, RaftError.EPERM, "%s", text);
    }

    private static final String KEGDB_PACKAGE = "io.kegdb.";

    /** The refusal an answer carries, or null when it is no refusal. */
    static Refusal of(Object answer) {
        String text;
        if (answer instanceof String s) {
            text = s;
        } else if (answer instanceof RpcRequests.ErrorResponse e && e.getErrorCode() == RaftError.EPERM.getNumber()) {
            text = e.getErrorMsg();
        } else {
            return null;
        }
        if (!text.startsWith(PREFIX)) {
            return null;
        }
        int close = text.indexOf("): ", PREFIX.length());
        if (close < 0) {
            return null;
        }
        try {
            return new Refusal(Kind.valueOf(text.substring(PREFIX.length(), close)), text.substring(close + 3));
        } catch (IllegalArgumentException unknownKind) {
            return null;
        }
    }
}
