"""A club's photos: what an upload must be (``images``), the copies made of it (``copies``),
albums and photos stored and removed, take-downs (``services``), the admins' e-mail
(``mailing``) and the demo's album (``demo``)."""
