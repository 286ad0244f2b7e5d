"""A message as plain data (``content``: text, ``Button`` rows, a picture) and the callback data of every
button kind with the keyboards that carry them (``keyboards``). No Telegram types: bot/telegram/ turns them
into requests."""
