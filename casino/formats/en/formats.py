# "2 Dec 2026, 14:05 UTC": the zone (T) always shown, the time on a 24-hour clock as the floor keeps it.
DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i T"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i T"
