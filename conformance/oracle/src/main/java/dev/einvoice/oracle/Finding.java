package dev.einvoice.oracle;

/** One fired rule, in the shape of the expected results; null fields are written as JSON null. */
final class Finding {
    String id;
    String flag;
    String kind;
    String loc;
    String text;
    String stage;

    void toJson(StringBuilder b) {
        b.append("{\"id\":").append(Json.quote(id))
                .append(",\"flag\":").append(Json.quote(flag))
                .append(",\"kind\":").append(Json.quote(kind))
                .append(",\"loc\":").append(Json.quote(loc))
                .append(",\"text\":").append(Json.quote(text))
                .append(",\"stage\":").append(Json.quote(stage))
                .append('}');
    }
}
