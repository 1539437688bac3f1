package io.kegdb.sql.calcite;

import io.kegdb.sql.catalog.ColumnType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.math.RoundingMode;

/**
 * The types of computed values (docs/SQL.md, "Types of expressions"). Calcite's default type system keeps
 * SUM and AVG in their argument's type (SUM of INTEGERs wraps, AVG of a DECIMAL(3,1) cannot hold the sum it
 * divides) and caps DECIMAL at 19 digits, which drops the fraction of a DECIMAL combined with a BIGINT. Here:
 * <ul>
 *   <li>expressions may be DECIMAL of up to {@value #MAX_DECIMAL_PRECISION} digits (a column keeps at most
 *       {@link ColumnType#MAX_DECIMAL_PRECISION}, its key encoding's limit); {@code DECIMAL} without a precision
 *       is still DECIMAL(19, 0), as in DDL;</li>
 *   <li>SUM of TINYINT, SMALLINT or INTEGER is BIGINT, of BIGINT DECIMAL(38, 0), of DECIMAL(p, s)
 *       DECIMAL(38, s); of DOUBLE/REAL DOUBLE/REAL;</li>
 *   <li>AVG of an integer type is DOUBLE, of DECIMAL(p, s) DECIMAL(38, s + 10), of DOUBLE/REAL itself;</li>
 *   <li>casts round half up.</li>
 * </ul>
 */
final class KegTypeSystem extends RelDataTypeSystemImpl {

    static final KegTypeSystem INSTANCE = new KegTypeSystem();

    /** Digits of a computed DECIMAL. */
    static final int MAX_DECIMAL_PRECISION = ColumnType.MAX_COMPUTED_DECIMAL_PRECISION;
    /** Fractional digits an AVG of a DECIMAL adds to its argument's (as H2). */
    private static final int AVG_EXTRA_SCALE = 10;

    private KegTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getMaxPrecision(typeName);
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getMaxScale(typeName);
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? ColumnType.MAX_DECIMAL_PRECISION : super.getDefaultPrecision(typeName);
    }

    /**
     * Casts to DECIMAL and to integer types round half up, as a value stored into a DECIMAL column does
     * ({@code ColumnType.fit}) and as H2 and PostgreSQL do; Calcite's default cuts the digits off.
     */
    @Override
    public RoundingMode roundingMode() {
        return RoundingMode.HALF_UP;
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        RelDataType sum = switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> typeFactory.createSqlType(SqlTypeName.BIGINT);
            case BIGINT -> typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, 0);
            case DECIMAL -> typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION,
                    argumentType.getScale());
            default -> null;
        };
        return sum == null ? super.deriveSumType(typeFactory, argumentType)
                : typeFactory.createTypeWithNullability(sum, argumentType.isNullable());
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        RelDataType avg;
        if (SqlTypeUtil.isIntType(argumentType)) {
            avg = typeFactory.createSqlType(SqlTypeName.DOUBLE);
        } else if (SqlTypeUtil.isDecimal(argumentType)) {
            avg = typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION,
                    Math.min(argumentType.getScale() + AVG_EXTRA_SCALE, MAX_DECIMAL_PRECISION));
        } else {
            return super.deriveAvgAggType(typeFactory, argumentType);
        }
        return typeFactory.createTypeWithNullability(avg, argumentType.isNullable());
    }
}
