"""Pictures the bot draws itself with Pillow.

They are card faces and backs (uploaded as application emojis) and the round-end picture. No
discord here: bytes in, bytes out."""
