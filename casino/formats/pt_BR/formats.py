# "02/12/2026 14:05 UTC": the Brazilian day/month/year order.
DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "d/m/Y H:i T"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i T"
