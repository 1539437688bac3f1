package io.kegdb.sql.calcite;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeMappingRule;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.List;

/**
 * Calcite's type factory over {@link KegTypeSystem}, with one change to the common type of exact numbers (of a
 * UNION, CASE, COALESCE, IN list, comparison): a DECIMAL keeps the largest scale among them. Calcite keeps
 * the whole digits and drops fractional ones when both do not fit in the largest precision (0.056 compared in
 * DECIMAL(19, 0) is 0); here the fraction is kept and the whole digits are what is left of the
 * {@value KegTypeSystem#MAX_DECIMAL_PRECISION}, so a value too large for them fails with 22003 when it is cast,
 * as H2 does.
 */
final class KegTypeFactory extends JavaTypeFactoryImpl {

    KegTypeFactory() {
        super(KegTypeSystem.INSTANCE);
    }

    @Override
    public RelDataType leastRestrictive(List<RelDataType> types, SqlTypeMappingRule mappingRule) {
        RelDataType common = super.leastRestrictive(types, mappingRule);
        if (common == null || common.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return common;
        }
        int scale = 0;
        for (RelDataType t : types) {
            if (SqlTypeUtil.isDecimal(t)) {
                scale = Math.max(scale, t.getScale());
            } else if (!SqlTypeUtil.isExactNumeric(t) && t.getSqlTypeName() != SqlTypeName.NULL) {
                return common;
            }
        }
        scale = Math.min(scale, getTypeSystem().getMaxScale(SqlTypeName.DECIMAL));
        if (common.getScale() >= scale) {
            return common;
        }
        return createTypeWithNullability(createSqlType(SqlTypeName.DECIMAL,
                getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL), scale), common.isNullable());
    }
}
