"""Who is who: users' names and languages, chats' languages and display modes (``people``); group
membership and deep-link keys (``access``)."""
