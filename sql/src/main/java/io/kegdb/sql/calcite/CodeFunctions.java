package io.kegdb.sql.calcite;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * Operators that KegDB puts into plans in place of Calcite's, implemented by a public static method the generated
 * code calls ({@link CheckedIntegerFunctions}, {@link DecimalQuotients}). A call of one is built with its type
 * given, so the operator's own type inference only says "the first operand's".
 */
final class CodeFunctions {

    private CodeFunctions() {
    }

    /** The operator named {@code name} implemented by {@code owner}'s static {@code method(parameters)}. */
    static SqlOperator operator(String name, Class<?> owner, String method, Class<?>... parameters) {
        try {
            return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                    ReturnTypes.ARG0, InferTypes.FIRST_KNOWN, null,
                    ScalarFunctionImpl.create(owner.getMethod(method, parameters)));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
