package io.kegdb.raft.security;

import com.alipay.sofa.jraft.error.RaftError;
import com.alipay.sofa.jraft.rpc.RpcRequests;
import com.alipay.sofa.jraft.util.RpcFactoryHelper;
import com.google.protobuf.Message;

/**
 * The answer a node sends to a request it refuses: SOFAJRaft's {@code ErrorResponse} (so that SOFAJRaft's own
 * clients report it as they report any error) with code {@code EPERM} and a text that KegDB's clients
 * recognise: {@code "KegDB refused (KIND): reason"}.
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

    Message toResponse() {
        return RpcFactoryHelper.responseFactory().newResponse(null, RaftError.EPERM, "%s",
                PREFIX + kind + "): " + reason);
    }

    /** The refusal an answer carries, or null when it is no refusal. */
    static Refusal of(Object answer) {
        if (!(answer instanceof RpcRequests.ErrorResponse e) || e.getErrorCode() != RaftError.EPERM.getNumber()) {
            return null;
        }
        String text = e.getErrorMsg();
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
